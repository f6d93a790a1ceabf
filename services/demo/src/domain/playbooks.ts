/**
 * How each demo team's conversations go: for every criterion of the team (services/identity's
 * demo-teams.ts) a move the representative either makes or misses, in the words a person would
 * use, plus small talk that makes a call longer without touching any criterion, and the two ways
 * it can end. The generator (demo-conversations.ts) decides which moves are made, so the demo
 * data knows the truth the scoring engine should find.
 */

export type Speaker = 'representative' | 'contact' | 'guest';

export interface Line {
  speaker: Speaker;
  text: string;
}

/** The people and the dice of one conversation. */
export interface Scene {
  representative: { firstName: string; fullName: string };
  contact: { firstName: string; fullName: string; company: string };
  /** A colleague of the contact, who speaks in meetings. */
  guest: { firstName: string; fullName: string };
  pick<T>(options: readonly T[]): T;
  /** A weekday and time to meet, e.g. "Thursday at two". */
  slot(): string;
  /** A number of the given digits, e.g. a ticket. */
  digits(count: number): string;
}

export interface Move {
  /** The criterion this move satisfies, by name. */
  criterion: string;
  made(scene: Scene): Line[];
  missed(scene: Scene): Line[];
}

export interface Playbook {
  team: string;
  department: 'sales' | 'support' | 'hr';
  /** What the other side of a meeting is called in its title. */
  meetingTitle(scene: Scene): string;
  /** The contact's role, kept as the activity's contact. */
  contactRoles: readonly string[];
  /** In order; a move at index `closingMove` decides whether success is possible at all. */
  moves: readonly Move[];
  /** The move without which the conversation cannot succeed (a demo booked needs a date proposed). */
  closingMove: string;
  /** The closing criterion asks for the other side's agreement too, so it is met only when the conversation succeeds. */
  closingNeedsAgreement: boolean;
  /** Exchanges about details, inserted after the first half of the moves. */
  smallTalk(scene: Scene): Line[];
  won(scene: Scene): Line[];
  lost(scene: Scene): Line[];
}

const rep = (text: string): Line => ({ speaker: 'representative', text });
const them = (text: string): Line => ({ speaker: 'contact', text });
const guest = (text: string): Line => ({ speaker: 'guest', text });

/** Price is what prospects raise most, in their own words. */
const objection = (scene: Scene): { concern: string; answer: string } =>
  scene.pick([
    {
      concern: 'Honestly, the price worries me. We are not a big team.',
      answer: 'I understand your concern about price, so let me answer it: the team plan is billed per seat, and the first month is free.',
    },
    {
      concern: 'My worry is the price. Anything we buy has to be approved by finance.',
      answer: 'I understand your concern about price, so let me answer it: you can start on the monthly plan and cancel at any time.',
    },
    {
      concern: 'What does it cost? Price matters a lot to us.',
      answer: 'I understand your concern about price, so let me answer it: it is thirty dollars per seat per month, with no setup fee.',
    },
  ]);

const salesSmallTalk = (scene: Scene): Line[] =>
  scene.pick([
    [
      them(`We have about ${scene.pick(['fifteen', 'twenty', 'thirty', 'forty'])} people on the phones, split across two shifts.`),
      rep('That is a good size. Are they all in one office?'),
      them('Mostly remote these days, with one office in Leeds.'),
    ],
    [
      them('We moved to a cloud dialer last spring, so every call is recorded already.'),
      rep('That helps a lot. Do you keep the recordings for long?'),
      them('Ninety days, then they are archived.'),
    ],
    [
      them('Our managers each look after eight to ten people.'),
      rep('And do they have a regular coaching session with each of them?'),
      them('Every other week, when the diary allows.'),
    ],
    [
      rep('How did you hear about us, by the way?'),
      them(`A friend at ${scene.pick(['Contoso', 'Fabrikam', 'Tailspin', 'Litware'])} mentioned you at a conference.`),
      rep('Good to hear, they have been with us a while.'),
    ],
  ]);

const INBOUND_SALES: Playbook = {
  team: 'Inbound Sales',
  department: 'sales',
  meetingTitle: (scene) => `Product demo with ${scene.contact.company}`,
  contactRoles: ['Head of Sales', 'Sales Operations Manager', 'VP Customer Success', 'Team Lead'],
  closingMove: 'Next steps',
  closingNeedsAgreement: false,
  moves: [
    {
      criterion: 'Greeting',
      made: (scene) => [rep(`Thank you for calling Parlance, this is ${scene.representative.firstName}. How can I help you today?`)],
      missed: (scene) => [rep(scene.pick(['Yes?', 'Go ahead.', 'Yeah?']))],
    },
    {
      criterion: 'Rapport',
      made: (scene) => [
        them(`Hi, I was looking at your website and wanted to ask a few questions.`),
        rep('Of course. May I ask who I am speaking with?'),
        them(`I'm ${scene.contact.firstName}, from ${scene.contact.company}.`),
        rep(`Nice to meet you, ${scene.contact.firstName}.`),
      ],
      missed: (scene) => [them(`Hi, this is ${scene.contact.firstName} from ${scene.contact.company}. I wanted to ask a few questions.`), rep('Sure, what do you want to know?')],
    },
    {
      criterion: 'Needs discovery',
      made: (scene) => [
        rep('What made you reach out today, and how do you review your calls right now?'),
        them('Our managers listen to two or three recordings a week each. It is not nearly enough.'),
        rep('What would you most like to improve first?'),
        them(scene.pick(['Consistent scoring, so every rep is judged the same way.', 'Coaching that is based on evidence rather than gut feeling.', 'Seeing which calls go wrong before the customer complains.'])),
      ],
      missed: () => [
        rep('So we do call scoring, dashboards and integrations with HubSpot and Close.'),
        them('Our managers only listen to a couple of recordings a week.'),
        rep('Right, okay.'),
      ],
    },
    {
      criterion: 'Value proposition',
      made: () => [
        rep('Since your managers only listen to a few recordings a week, the capability of our product that links to that need is automatic scoring of every call, so nothing is missed.'),
        them('That sounds like what we need.'),
      ],
      missed: () => [rep('We have a lot of features. There is an API as well.'), them('Okay.')],
    },
    {
      criterion: 'Objection handling',
      made: (scene) => {
        const { concern, answer } = objection(scene);
        return [them(concern), rep(answer), them('Okay, that helps.')];
      },
      missed: (scene) => {
        const { concern } = objection(scene);
        return [them(concern), rep(scene.pick(['It is what it is. You can look at the website for details.', 'Everyone says that at first.'])), them('I see.')];
      },
    },
    {
      criterion: 'Next steps',
      made: (scene) => [rep(`Based on what you said, I would suggest a short demo. Would ${scene.slot()} or ${scene.slot()} suit you?`)],
      missed: () => [rep('Anyway, have a look at the website and get back to us if you are interested.')],
    },
  ],
  smallTalk: salesSmallTalk,
  won: (scene) => {
    const slot = scene.slot();
    return [them(`${slot} works for me.`), rep(`Great, that is confirmed: the demo is booked for ${slot} and I will send you the invite by email. Thanks, ${scene.contact.firstName}!`), them('Thank you, talk then.')];
  },
  lost: () => [them('I will think about it.'), rep('Understood, I confirm: no demo for now. Bye.')],
};

const OUTBOUND_SALES: Playbook = {
  team: 'Outbound Sales',
  department: 'sales',
  meetingTitle: (scene) => `Discovery meeting with ${scene.contact.company}`,
  contactRoles: ['Contact Centre Manager', 'Head of Customer Service', 'COO', 'Sales Director'],
  closingMove: 'Meeting booked',
  closingNeedsAgreement: true,
  moves: [
    {
      criterion: 'Permission',
      made: (scene) => [
        rep(`Hi ${scene.contact.firstName}, my name is ${scene.representative.firstName} and I am calling from Parlance, a call-review company. Is this a good time to talk?`),
        them('Yes, I have a couple of minutes.'),
      ],
      missed: (scene) => [rep(`Hi, is that ${scene.contact.firstName}?`), them('Speaking.')],
    },
    {
      criterion: 'Reason for calling',
      made: (scene) => [
        rep(`The reason for my call is clear and simple, and it relates to your business: contact centres like ${scene.contact.company} spend hours every week listening to calls, and we score every call automatically.`),
        them('Go on.'),
      ],
      missed: () => [rep('I just wanted to tell you about our product, we have lots of new features.'), them('Which product is this?')],
    },
    {
      criterion: 'Qualification',
      made: () => [
        rep('Who reviews your calls today, and how many people are on the phones?'),
        them('The team leads do, for about thirty agents.'),
        rep('And which tool do you use for it?'),
        them('A spreadsheet and the dialer’s recordings.'),
      ],
      missed: () => [rep('So it is really great, honestly, everyone loves it.'), them('Right.')],
    },
    {
      criterion: 'Objection handling',
      made: (scene) => {
        const { concern, answer } = objection(scene);
        return [them(concern), rep(answer), them('Fair enough.')];
      },
      missed: (scene) => {
        const { concern } = objection(scene);
        return [them(concern), rep('Well, I think you should try it anyway.'), them('I am not convinced.')];
      },
    },
    {
      criterion: 'Meeting booked',
      made: (scene) => [rep(`Would you be open to a twenty-minute meeting next week? I have ${scene.slot()} or ${scene.slot()}.`)],
      missed: () => [rep('I will email you some information then.')],
    },
  ],
  smallTalk: salesSmallTalk,
  won: (scene) => {
    const slot = scene.slot();
    return [them(`Let us do ${slot}.`), rep(`Perfect, I confirm the meeting for ${slot}. I will send the invitation right after this call.`), them('Thanks, bye.')];
  },
  lost: () => [them('Please just send me an email, I need to go.'), rep('Okay, bye.')],
};

const CUSTOMER_CARE: Playbook = {
  team: 'Customer Care',
  department: 'support',
  meetingTitle: (scene) => `Escalation review with ${scene.contact.company}`,
  contactRoles: ['Customer', 'Account Owner', 'Administrator'],
  closingMove: 'Confirmation',
  closingNeedsAgreement: false,
  moves: [
    {
      criterion: 'Verification',
      made: (scene) => [
        rep(`Good afternoon, Parlance support, this is ${scene.representative.firstName}.`),
        them(scene.pick(['Hi, my uploads keep failing and I have a report due today. This is really frustrating.', 'Hello, nobody on my team can sign in since this morning and it is driving me mad.'])),
        rep('Before we look at your account, can you confirm your email address and the last four digits of the card on file?'),
        them(`Sure, ${scene.contact.firstName.toLowerCase()}@${scene.contact.company.toLowerCase().replace(/[^a-z]/g, '')}.com and ${scene.digits(4)}.`),
        rep('Thank you, you are verified.'),
      ],
      missed: (scene) => [
        rep('Support.'),
        them(scene.pick(['Hi, my uploads keep failing and I have a report due today. This is really frustrating.', 'Hello, nobody on my team can sign in since this morning and it is driving me mad.'])),
        rep('Okay, I can see your account here.'),
      ],
    },
    {
      criterion: 'Empathy',
      made: () => [rep('I am sorry, I can hear how frustrating that is, especially with a deadline.')],
      missed: () => [rep('Those things happen.')],
    },
    {
      criterion: 'Troubleshooting',
      made: () => [
        rep('What have you tried so far?'),
        them('I tried twice and restarted my browser.'),
        rep('Okay, I will give you clear step-by-step instructions. First, open Settings and choose Uploads. Then clear the failed entry. Finally, try again and tell me what you see.'),
        them('That worked, it is going through now.'),
      ],
      missed: () => [rep('Just try again later, it usually sorts itself out.'), them('Okay...')],
    },
    {
      criterion: 'Confirmation',
      made: (scene) => [rep(`Is the problem solved on your side? I have logged this as ticket ${scene.digits(5)} in case it happens again.`)],
      missed: () => [rep('Right, anything else?')],
    },
  ],
  smallTalk: (scene) =>
    scene.pick([
      [them('It started after the update last night, I think.'), rep('Thanks, that is useful to know.'), them('The others in my team see the same thing.')],
      [them('I am using the desktop app, if that matters.'), rep('It can, thank you. Which version?'), them(`Version ${scene.digits(1)}.${scene.digits(1)}, I think.`)],
      [them('We have twenty people who depend on this every day.'), rep('Understood.')],
    ]),
  won: () => [them('Yes, it is solved, thank you!'), rep('You are welcome. Have a good day.')],
  lost: () => [them('No, it is still not working. I will call back later.'), rep('Okay.')],
};

const BILLING_SUPPORT: Playbook = {
  team: 'Billing Support',
  department: 'support',
  meetingTitle: (scene) => `Invoice review with ${scene.contact.company}`,
  contactRoles: ['Finance Manager', 'Account Owner', 'Office Manager'],
  closingMove: 'Resolution offered',
  closingNeedsAgreement: false,
  moves: [
    {
      criterion: 'Verification',
      made: (scene) => [
        rep(`Thank you for calling Parlance billing, this is ${scene.representative.firstName}. Can I have the e-mail address on the account, and your postcode?`),
        them(`It is ${scene.contact.firstName.toLowerCase()} at ${scene.contact.company.toLowerCase().replace(/[^a-z]/g, '')} dot com, and the postcode is L S ${scene.digits(1)}.`),
        rep('Thank you, that matches.'),
      ],
      missed: () => [rep('Hello, you have reached billing.'), them('Hi, I have a question about my invoice.'), rep('Go ahead.')],
    },
    {
      criterion: 'Clear explanation',
      made: (scene) => {
        const amount = scene.pick(['forty nine', 'ninety eight', 'one hundred and twenty', 'two hundred and forty']);
        return [
          them('I was charged twice this month.'),
          rep(`Let me explain each charge: the amount of ${amount} dollars was charged on the third, and the same amount again on the fourth, because the card was retried after a timeout.`),
        ];
      },
      missed: () => [them('I was charged twice this month.'), rep('There are a few charges there, yes.')],
    },
    {
      criterion: 'Resolution offered',
      made: () => [rep('The second charge is wrong, so I am offering you a refund of it to the same card. It will arrive in three to five working days.')],
      missed: () => [rep('You would need to contact your bank about that.')],
    },
    {
      criterion: 'Anything else',
      made: () => [rep('Can I help you with anything else today?'), them('No, that is all.')],
      missed: () => [],
    },
  ],
  smallTalk: (scene) =>
    scene.pick([
      [them('We switched to yearly billing last month, maybe that is why.'), rep('Possibly, I will keep that in mind.')],
      [them('Our finance team closes the books on Friday.'), rep('Understood.')],
      [them(`The invoice number is I N V ${scene.digits(4)}.`), rep('Thank you.')],
    ]),
  won: () => [them('Great, so my billing question is answered and the refund is agreed, with a date.'), rep('Yes, it arrives by Friday. My pleasure, goodbye.')],
  lost: () => [them('That is not good enough. I will raise a complaint.'), rep('I understand.')],
};

const TALENT_ACQUISITION: Playbook = {
  team: 'Talent Acquisition',
  department: 'hr',
  meetingTitle: (scene) => `Interview with ${scene.contact.fullName}`,
  contactRoles: ['Customer Success Manager', 'Account Executive', 'Support Engineer', 'Sales Development Representative'],
  closingMove: 'Next steps',
  closingNeedsAgreement: false,
  moves: [
    {
      criterion: 'Introduction',
      made: (scene) => [
        rep(`Hi ${scene.contact.firstName}, this is ${scene.representative.firstName} from the Parlance talent team. Thank you for making the time. We will spend about thirty minutes: I will tell you about the role, ask you a few questions, and leave time for yours.`),
        them('Sounds good, thank you.'),
      ],
      missed: (scene) => [rep(`Hi, ${scene.contact.firstName}?`), them('Yes, hello.')],
    },
    {
      criterion: 'Role overview',
      made: () => [
        rep('The role sits in a team of six that looks after our largest customers. In the first three months success means owning ten accounts and running their quarterly reviews.'),
        them('That is helpful, thank you.'),
      ],
      missed: () => [rep('You have read the job description, I assume.'), them('Yes, I have.')],
    },
    {
      criterion: 'Competency questions',
      made: () => [
        rep('Can you tell me about a specific time in the past when you handled a difficult customer?'),
        them('A customer once threatened to cancel after an outage. I called them every day until it was fixed, and they renewed.'),
        rep('And tell me about a specific situation in the past where you had to change a process that was not working.'),
        them('Our handover notes were inconsistent, so I wrote a template and trained the team on it.'),
      ],
      missed: () => [rep('So, where do you see yourself in five years?'), them('Hopefully leading a team.')],
    },
    {
      criterion: 'Candidate questions',
      made: () => [
        rep('Do you have any questions for me?'),
        them('Yes: how is the team measured?'),
        rep('Good question, let me answer it. The team is measured on retention and on the health score of each account.'),
      ],
      missed: () => [],
    },
    {
      criterion: 'Next steps',
      made: (scene) => [rep(`The next step is a panel interview with the team. You will hear back from me by ${scene.pick(['Friday', 'Monday', 'Wednesday'])}.`)],
      missed: () => [rep('Okay, we will be in touch.')],
    },
  ],
  smallTalk: (scene) =>
    scene.pick([
      [them(`I have been at ${scene.contact.company} for three years now.`), rep('What do you enjoy most there?'), them('Working with customers directly.')],
      [them('I am available with a month’s notice.'), rep('Noted, thank you.')],
      [rep('Did you find the building all right?'), them('Yes, the directions were clear.')],
    ]),
  won: (scene) => {
    const slot = scene.slot();
    return [them(`${slot} would work for the panel.`), rep(`Great, you are moved to the next round, and the panel is booked for ${slot}. I will send the details today.`), them('Thank you very much.')];
  },
  lost: () => [them('Thank you for your time.'), rep('Thank you, goodbye.')],
};

export const PLAYBOOKS: readonly Playbook[] = [INBOUND_SALES, OUTBOUND_SALES, CUSTOMER_CARE, BILLING_SUPPORT, TALENT_ACQUISITION];

/** The playbook of a team: by its name, else the first of its department (a team the company added later). */
export function playbookOf(team: { name: string; department: string }): Playbook | undefined {
  return PLAYBOOKS.find((playbook) => playbook.team === team.name) ?? PLAYBOOKS.find((playbook) => playbook.department === team.department);
}

/** A guest's line, for meetings. */
export function guestLine(scene: Scene): Line {
  return guest(
    scene.pick([
      `I would add that our team leads are stretched already, ${scene.representative.firstName}.`,
      'Can we get a copy of the slides after this?',
      'From my side the main thing is that it works with our existing tools.',
      'I agree with that.',
    ]),
  );
}
