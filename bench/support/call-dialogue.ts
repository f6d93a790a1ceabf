/**
 * Plausible customer calls and meetings of a chosen length, for the scoring benches: a broadband
 * and TV provider's representative and a customer whose bill went up and whose connection drops
 * in the evenings. Each conversation is put together from the moves such a call is made of
 * (greeting, the reason for calling, identity checks, questions about how the line is used,
 * troubleshooting, a price objection, an upgrade offer, questions about delivery and refunds,
 * account admin, next steps, goodbye), each move with several wordings and its own details
 * (names, devices, times, prices), in the order a call goes, until the wanted number of words.
 * Seeded, so the same seed gives the same conversation.
 *
 * A meeting is an hour's video consultation with the account holder and the relative who sorts out
 * the technology at home: the same moves, several rounds of them.
 *
 * The text is rendered as `[hh:mm:ss] Name: words` lines (Zoom's .txt export), and read into a
 * Transcript by transcription's own text reader, so the benches evaluate what the pipeline does.
 */
import type { Transcript } from '@parlance/proto/parlance/transcription/v1/transcription';
import { activityKindOf } from '@parlance/platform/activity/activity-kind';
import { transcribeText } from '@parlance/transcription/pipeline/transcribe-activity';

export type ConversationKind = 'call' | 'meeting';

export interface DialogueLine {
  speaker: string;
  text: string;
  startMs: number;
}

export interface Dialogue {
  kind: ConversationKind;
  representative: { firstName: string; lastName: string };
  lines: DialogueLine[];
  /** Whitespace-separated words said (labels and times not counted), as the offline engine counts them. */
  words: number;
}

export interface DialogueOptions {
  kind?: ConversationKind;
  /** Words said in total; the result is within a few words of it. */
  words: number;
  seed?: number;
  /** The representative's first name (the upload names them, so roles are assigned by name). */
  representative?: string;
}

type Side = 'rep' | 'contact';
type Turn = readonly [Side, string];
type Phase = 'discovery' | 'troubleshooting' | 'objection' | 'offer' | 'delivery' | 'refund' | 'admin' | 'rapport';
const PHASE_ORDER: readonly Phase[] = ['rapport', 'discovery', 'troubleshooting', 'objection', 'offer', 'delivery', 'refund', 'admin'];

interface Details {
  rep: string;
  company: string;
  customer: string;
  customerLast: string;
  account: string;
  postcode: string;
  oldPrice: number;
  newPrice: number;
  plan: string;
  upgrade: string;
  upgradePrice: number;
  kind: ConversationKind;
}

/** mulberry32: small, fast and good enough to vary wordings. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (low: number, high: number) => low + Math.floor(next() * (high - low + 1));
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const chance = (p: number) => next() < p;
  const shuffle = <T>(values: readonly T[]): T[] => {
    const copy = [...values];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy;
  };
  return { next, int, pick, chance, shuffle };
}
type Random = ReturnType<typeof generator>;

const REPRESENTATIVES = ['Daniel Reyes', 'Priya Shah', 'Tom Becker', 'Aisha Mensah', 'Laura Kim'];
const CUSTOMERS = ['Martin Kowalski', 'Helen Brooks', 'Samuel Okafor', 'Julia Fernandes', 'Kevin Walsh', 'Noor Haddad', 'Ruth Lindqvist'];
const RELATIVES = ['Ben', 'Irene', 'Oscar', 'Maya'];
const DEVICES = ['two laptops', 'a work laptop', 'the smart TV', 'a games console', 'a tablet', 'the doorbell camera', 'a desktop upstairs'];
const ROOMS = ['the kitchen', 'the spare bedroom', 'the living room', 'the loft office', 'the garden room', 'the hallway'];
const EVENINGS = ['around seven', 'after eight', 'between six and nine', 'most evenings after dinner', 'on Sunday nights', 'when the kids get home from school'];
const WORK_APPS = ['Teams calls', 'Zoom meetings', 'the VPN for work', 'uploading drawings to clients', 'our booking system'];
const HOME_APPS = ['Netflix', 'online gaming', 'YouTube', 'video calls with family abroad', 'the football streams'];
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
const COMPETITORS = ['Skyline', 'NetHarbour', 'Fibrely', 'City Broadband'];
const PLANS: ReadonlyArray<{ plan: string; upgrade: string }> = [
  { plan: 'Essential 36', upgrade: 'Fibre 150' },
  { plan: 'Fibre 67', upgrade: 'Fibre 300' },
  { plan: 'Fibre 150', upgrade: 'Fibre 500' },
];

/** The moves in the middle of a call, each a few turns with its own details. */
const MOVES: ReadonlyArray<{ phase: Phase; turns: (d: Details, r: Random) => Turn[] }> = [
  {
    phase: 'rapport',
    turns: (d, r) => [
      ['rep', r.pick([`Before we dive in, how has your week been, ${d.customer}?`, `How are you doing today, apart from the internet trouble?`, `I hope the weather has been kinder where you are than it has been here.`])],
      ['contact', r.pick([`Oh, busy, you know how it is. We have had builders in all week and everything is covered in dust.`, `Not too bad, thanks for asking. Just a bit fed up with this, to be honest.`, `It's been raining non-stop here, so everyone has been stuck indoors using the internet at once.`])],
      ['rep', r.pick([`I can imagine. Well, let's see if we can make at least one thing easier for you today.`, `That sounds like a lot. Let's get this sorted so it is one less thing to worry about.`])],
    ],
  },
  {
    phase: 'discovery',
    turns: (d, r) => [
      ['rep', r.pick([`Can you tell me a bit about how you use the internet at home at the moment?`, `What do you mainly use the connection for during the day?`, `Walk me through a normal day: who is online and what are they doing?`])],
      ['contact', `${r.pick(['Well,', 'So,', 'Honestly,'])} I work from home three days a week, mostly on ${r.pick(WORK_APPS)}, and in the evenings it's ${r.pick(HOME_APPS)}. We have ${r.shuffle(DEVICES).slice(0, 2).join(' and ')} connected most of the time.`],
      ['rep', r.pick([`That's helpful, thank you. So video calls during the day are the most important thing for you?`, `Got it. And is it mostly the work calls that suffer when it drops?`])],
      ['contact', r.pick([`Yes, exactly. Last week I got cut off in the middle of a call with a client, which was embarrassing.`, `Mostly, yes, but the kids complain too when their films keep buffering.`, `Both really. It's annoying for everyone.`])],
    ],
  },
  {
    phase: 'discovery',
    turns: (d, r) => [
      ['rep', `How many people are using the connection at the same time in the evening, roughly?`],
      ['contact', `${r.pick(['Four of us', 'Three of us', 'Five, when my sister visits'])}, and there's ${r.pick(DEVICES)} on top of everyone's phones. It gets worse ${r.pick(EVENINGS)}.`],
      ['rep', `And where in the house is the router at the moment?`],
      ['contact', `It's in ${r.pick(ROOMS)}, behind the TV, because that's where the engineer put the socket.`],
    ],
  },
  {
    phase: 'discovery',
    turns: (d, r) => [
      ['rep', r.pick([`What would a good connection look like for you? What matters most?`, `If everything worked perfectly, what would be different for you?`])],
      ['contact', r.pick([
        `I just want it to stay up. I don't need the fastest thing on the market, I need it not to drop when I'm on a call.`,
        `Reliability, mainly. And not paying more every year for the same thing.`,
        `Being able to upload large files for work without waiting half an hour would be nice, but mostly stability.`,
      ])],
      ['rep', `That makes sense, and it helps me recommend the right option rather than just the most expensive one.`],
    ],
  },
  {
    phase: 'discovery',
    turns: (d, r) => [
      ['rep', `When did you first notice the drops? Has it been going on for a while?`],
      ['contact', `About ${r.pick(['three weeks', 'a month', 'two months', 'six weeks'])} now. It started around the time they were digging up the road outside, actually.`],
      ['rep', `Interesting, that could be relevant. Does it come back by itself or do you have to restart the router?`],
      ['contact', r.pick([`Sometimes it comes back after a few minutes, sometimes I have to switch it off and on.`, `It usually comes back on its own, but it takes ages.`])],
    ],
  },
  {
    phase: 'troubleshooting',
    turns: (d, r) => [
      ['rep', `Could you have a look at the router for me? What colour is the light on the front right now?`],
      ['contact', r.pick([`It's white at the moment, but when it drops it goes orange and flashes.`, `It's blue, solid blue. When it goes wrong it flashes red.`])],
      ['rep', `Okay, that tells me the router is losing the connection to the exchange rather than just the wifi dropping. That is useful.`],
    ],
  },
  {
    phase: 'troubleshooting',
    turns: (d, r) => [
      ['rep', `I'm running a line test from my side now, it takes about a minute. While it runs, is the router plugged straight into the main socket or through an extension cable?`],
      ['contact', r.pick([`Through an extension, I think. There's a long white cable that goes along the skirting board.`, `Straight into the wall, as far as I know.`])],
      ['rep', `Right. The test is showing ${r.pick(['some noise on the line', 'a lot of errors in the last week', 'the line resyncing several times a day'])}, which matches what you're describing.`],
      ['contact', `So it's not just me imagining it, then.`],
      ['rep', `No, definitely not. There is something going on with the line itself.`],
    ],
  },
  {
    phase: 'troubleshooting',
    turns: (d, r) => [
      ['rep', `Have you run a speed test recently, by any chance?`],
      ['contact', `Yes, I did one last night ${r.pick(EVENINGS)} and it said ${r.int(4, 19)} megabits, which seems low.`],
      ['rep', `It is low. On your plan you should be seeing something closer to ${r.pick([60, 65, 140, 145])} most of the time, so something is not right.`],
      ['contact', `That's what I thought. I have been paying for something I'm not getting.`],
    ],
  },
  {
    phase: 'troubleshooting',
    turns: (d, r) => [
      ['rep', `One thing that often helps is moving the router off the floor and away from the TV. Is that something you could try this evening?`],
      ['contact', r.pick([`I can try, but the cable only reaches so far.`, `Sure, I can put it on the shelf above.`])],
      ['rep', `Even half a metre higher can make a difference to the wifi. It won't fix the line errors, though, so I'll still book the other things we talk about.`],
    ],
  },
  {
    phase: 'troubleshooting',
    turns: (d, r) => [
      ['contact', r.pick([`I have already restarted it about ten times, by the way. I know that's always the first question.`, `Please don't tell me to turn it off and on again, I've done that more times than I can count.`])],
      ['rep', `Ha, I won't, I promise. You have clearly done the basics already, so let's skip that and look at the line.`],
      ['contact', `Thank you. The last person I spoke to made me do it three times while I waited.`],
      ['rep', `I'm sorry about that. I can see the notes from that call, and I can see it didn't help.`],
    ],
  },
  {
    phase: 'objection',
    turns: (d, r) => [
      ['contact', `And the other thing is the price. It went up from ${d.oldPrice} to ${d.newPrice} dollars a month, and nobody told me.`],
      ['rep', r.pick([
        `I completely understand why that's frustrating, especially when the service hasn't been reliable.`,
        `I hear you, and I'm sorry it came as a surprise. Nobody likes finding a higher bill.`,
      ])],
      ['rep', `The increase was the yearly price change in the terms, and a letter should have gone out in ${r.pick(['February', 'March'])}. I can see it went to an old email address, which explains why you never saw it.`],
      ['contact', `Well, that's not really my fault, is it?`],
      ['rep', `No, it isn't, and I'll update the address so it doesn't happen again.`],
    ],
  },
  {
    phase: 'objection',
    turns: (d, r) => [
      ['contact', `To be honest, ${r.pick(COMPETITORS)} are offering fibre for ${d.newPrice - r.int(8, 14)} dollars a month to new customers. I've been thinking about switching.`],
      ['rep', `That's a fair thing to consider, and I'd rather you stay because it's a good deal than because leaving is a hassle.`],
      ['rep', `Their price is an introductory offer for the first ${r.pick(['six', 'twelve'])} months, and then it goes up to about ${d.newPrice + r.int(4, 9)}. There's also a setup fee of ${r.pick([50, 60, 75])} dollars.`],
      ['contact', `I didn't know about the setup fee.`],
      ['rep', `Most people don't, it's in the small print. Let me show you what I can do on our side before you decide.`],
    ],
  },
  {
    phase: 'objection',
    turns: (d, r) => [
      ['contact', r.pick([`It just feels like loyal customers get the worst deal.`, `Why do new customers always get the better price?`])],
      ['rep', `I understand that, and it's a common frustration. Your loyalty does count for something here: existing customers can move to the annual plan at the same price new customers pay.`],
      ['contact', `Okay, that's a bit better. What's the catch?`],
      ['rep', `The only commitment is twelve months. No setup fee, and the price is fixed for the whole year.`],
    ],
  },
  {
    phase: 'offer',
    turns: (d, r) => [
      ['rep', `Based on what you've told me, I'd suggest moving you to ${d.upgrade} on the annual plan. It's ${d.upgradePrice} dollars a month, fixed for twelve months, and it runs on the newer fibre cabinet, which should avoid the noise on your current line.`],
      ['contact', `So it would actually be cheaper than what I'm paying now?`],
      ['rep', `Yes, it's ${d.newPrice - d.upgradePrice} dollars a month less than your new price, and the speed is roughly ${r.pick(['double', 'three times', 'twice'])} what you have now.`],
      ['contact', r.pick([`That does sound better. Let me think about it for a second.`, `Okay, that's more like it.`])],
    ],
  },
  {
    phase: 'offer',
    turns: (d, r) => [
      ['contact', `What happens if I move house during the twelve months?`],
      ['rep', `If we cover the new address, the plan simply moves with you for free. If we don't, there's no early exit fee for a move.`],
      ['contact', `And could I cancel if it still keeps dropping?`],
      ['rep', `Yes. If we can't fix a fault within ${r.pick(['thirty days', 'thirty days of it being reported'])}, you can leave without paying anything extra. That's written in the terms.`],
    ],
  },
  {
    phase: 'offer',
    turns: (d, r) => [
      ['rep', `There's also a wifi booster I can add for ${r.pick([3, 4, 5])} dollars a month, which would help with ${r.pick(ROOMS)} if the signal is weak there.`],
      ['contact', r.pick([`I'll skip that for now, let's see if the new line fixes things first.`, `Maybe. Can I add it later if I need it?`])],
      ['rep', `Of course, you can add it any time through the app or by calling us. No pressure at all.`],
    ],
  },
  {
    phase: 'delivery',
    turns: (d, r) => [
      ['contact', `If I go ahead, when would the new router arrive? I'm away ${r.pick(['next week', 'at the end of the month', 'from the twentieth'])}.`],
      ['rep', r.chance(0.3)
        ? `It will be with you on ${r.pick(WEEKDAYS)}, don't worry, I guarantee it.`
        : `I can't give you an exact date, I'm afraid, because it depends on the courier. You'll get a text with a tracking link as soon as it is dispatched, and you can change the delivery day from that link.`],
      ['contact', `Okay, as long as I can move it if I'm not in.`],
    ],
  },
  {
    phase: 'delivery',
    turns: (d, r) => [
      ['contact', `And will an engineer need to come out?`],
      ['rep', `Yes, for the fibre upgrade an engineer fits a new socket. It usually takes about an hour, and they'll call about thirty minutes before they arrive.`],
      ['contact', `Can they come on a ${r.pick(['Saturday', 'weekday morning', 'weekday afternoon'])}?`],
      ['rep', `We can look at the appointment slots together in a moment and you can pick the one that suits you.`],
    ],
  },
  {
    phase: 'refund',
    turns: (d, r) => [
      ['contact', `Can I get a refund for the days it wasn't working? It's been down for hours at a time.`],
      ['rep', r.chance(0.75)
        ? `Yes, you can. Our refund policy is that for every full day the service is down because of a fault on our side, we refund a day of your monthly price, and it's credited to your next bill. I can see ${r.int(3, 9)} days of faults on the line, so I'll apply that credit now.`
        : `Let me look into that and get back to you.`],
      ['contact', `Thank you, that's fair.`],
    ],
  },
  {
    phase: 'admin',
    turns: (d, r) => [
      ['rep', `While I have you, can I update the email address on the account? The one we have is bouncing.`],
      ['contact', `Sure, it's ${d.customer.toLowerCase()}.${d.customerLast.toLowerCase()} at ${r.pick(['gmail', 'outlook', 'icloud'])} dot com.`],
      ['rep', `Thank you, I've read that back and updated it. You'll get a confirmation email in the next few minutes.`],
    ],
  },
  {
    phase: 'admin',
    turns: (d, r) => [
      ['contact', `Also, could I move the payment date? It comes out on the first, which is before I get paid.`],
      ['rep', `Of course. Which date would suit you better?`],
      ['contact', `The ${r.pick(['fifth', 'tenth', 'fifteenth', 'twenty-eighth'])} would be ideal.`],
      ['rep', `Done. Your next payment will be slightly lower because it covers a few days less, and after that it's the full amount on that date.`],
    ],
  },
];

/** Asides that fit anywhere, to bring a conversation to its length; each is used once. */
const ASIDES: ReadonlyArray<Turn> = [
  ['rep', 'Bear with me one moment while the account loads.'],
  ['rep', 'Sorry, the system is a little slow this morning.'],
  ['contact', 'Sorry, could you say that again? The line is a bit crackly.'],
  ['contact', 'Hang on, let me grab a pen so I can write this down.'],
  ['rep', 'No problem, take your time.'],
  ['contact', 'Sorry, the dog is barking, give me a second.'],
  ['rep', 'Let me just make a note of that on the account.'],
  ['contact', 'Okay, that makes sense.'],
  ['rep', "I'm just checking that for you now."],
  ['contact', "Right, I didn't know that."],
];
/** Backchannel, said while the other side talks; may repeat. */
const ACKNOWLEDGEMENTS: ReadonlyArray<Turn> = [
  ['contact', 'Okay.'],
  ['contact', 'Mm-hm.'],
  ['contact', 'Right.'],
  ['rep', 'Sure.'],
  ['rep', 'Mm-hm.'],
  ['contact', 'Yes.'],
];

function opening(d: Details, r: Random, second: string | undefined): Turn[] {
  if (d.kind === 'meeting') {
    return [
      ['rep', `Hi both, thanks for joining the video call. I'm ${d.rep} from ${d.company}. I've booked about an hour so we can go through the connection problems, your bill and the options properly.`],
      ['contact', `Thanks, ${d.rep}. I've got ${second ?? 'my son'} with me, who sorts out all the technology in the house.`],
      ['rep', `Great, nice to meet you. Let's start with what has been happening, then the bill, and leave time for questions at the end.`],
    ];
  }
  return [
    ['rep', r.pick([
      `Thank you for calling ${d.company}, my name is ${d.rep}. How can I help you today?`,
      `Good morning, you're through to ${d.company}, this is ${d.rep} speaking. How can I help?`,
      `Hello, thanks for calling ${d.company}, you're speaking with ${d.rep}. What can I do for you today?`,
    ])],
    ['contact', r.pick([
      `Hi ${d.rep}. I'm calling because my bill has gone up and my internet keeps dropping in the evenings.`,
      `Hello. My broadband keeps cutting out, and on top of that the price went up this month.`,
    ])],
  ];
}

function verification(d: Details, r: Random): Turn[] {
  if (d.kind === 'meeting') {
    return [
      ['rep', `Before we start, could you confirm the account number, so I know I have the right account open?`],
      ['contact', `It's ${d.account}. The account is in my name, ${d.customer} ${d.customerLast}.`],
      ['rep', `Thank you, that's the one I have.`],
    ];
  }
  return [
    ['rep', r.pick([`I'm sorry to hear that, let's get it sorted. First, could you confirm your account number and your date of birth, please?`, `I can help with both. Before I look at the account, could you give me your account number and the postcode?`])],
    ['contact', `Yes, it's ${d.account}, and ${r.chance(0.5) ? `the postcode is ${d.postcode}` : `my date of birth is the ${r.pick(['third', 'twelfth', 'twenty-first'])} of ${r.pick(['March', 'June', 'October'])} ${r.int(1960, 1995)}`}.`],
    ['rep', `Thank you, ${d.customer}, you're verified.`],
  ];
}

function closing(d: Details, r: Random, short: boolean): Turn[] {
  if (short) {
    return [
      ['rep', `Is there anything else I can help with today?`],
      ['contact', `No, that's all, thanks.`],
      ['rep', `Thanks for calling ${d.company}, ${d.customer}. Have a good ${r.pick(['evening', 'day'])}.`],
    ];
  }
  return [
    ['rep', r.pick([
      `So to recap: I've booked the engineer, applied the credit and you'll get a confirmation email today. I'll call you next ${r.pick(WEEKDAYS)} to check the line is stable.`,
      `Just to summarise, you're moving to ${d.upgrade} on the annual plan, the engineer visit is booked, and I'll send the confirmation by email today.`,
    ])],
    ['contact', r.pick([`Yes, let's go ahead with the annual plan.`, `Great, that all sounds good, thank you.`, `I'll think about the upgrade and call back, but thanks for the help.`])],
    ['rep', `Is there anything else I can help you with today?`],
    ['contact', `No, that's everything.`],
    ['rep', `Thanks for your patience, ${d.customer}. Have a good ${r.pick(['evening', 'day', 'weekend'])}.`],
  ];
}

const wordsIn = (text: string) => text.split(/\s+/).filter(Boolean).length;
const turnWords = (turns: readonly Turn[]) => turns.reduce((sum, [, text]) => sum + wordsIn(text), 0);

/** A conversation of about `options.words` words (within 1%, or a few words for short ones). */
export function callDialogue(options: DialogueOptions): Dialogue {
  const kind = options.kind ?? 'call';
  const r = generator(options.seed ?? 1);
  const [repFirst, repLast] = (options.representative ? `${options.representative} ${r.pick(REPRESENTATIVES).split(' ')[1]}` : r.pick(REPRESENTATIVES)).split(' ') as [string, string];
  const [customer, customerLast] = r.pick(CUSTOMERS).split(' ') as [string, string];
  const relative = kind === 'meeting' ? r.pick(RELATIVES) : undefined;
  const plans = r.pick(PLANS);
  const oldPrice = r.int(32, 44);
  const newPrice = oldPrice + r.int(5, 9);
  const details: Details = {
    rep: repFirst,
    company: 'Brightwave',
    customer,
    customerLast,
    account: String(r.int(10_000_000, 99_999_999)),
    postcode: `${r.pick(['BS', 'LS', 'M', 'NE', 'CF'])}${r.int(1, 19)} ${r.int(1, 9)}${r.pick(['AB', 'DW', 'HQ', 'RT', 'XL'])}`,
    oldPrice,
    newPrice,
    plan: plans.plan,
    upgrade: plans.upgrade,
    upgradePrice: newPrice - r.int(2, 6),
    kind,
  };

  const start = [...opening(details, r, relative), ...verification(details, r)];
  const end = closing(details, r, options.words < 400);
  const budget = options.words - turnWords(start) - turnWords(end);
  // The middle: rounds of the moves in a call's order (a meeting goes round several times), each
  // round a shuffled selection, until the next move would not fit.
  const middle: Turn[] = [];
  let used = 0;
  for (let round = 0; used < budget; round++) {
    const candidates = r.shuffle(MOVES.map((move, order) => ({ phase: move.phase, order, turns: move.turns(details, r) })));
    const chosen = candidates.filter((move) => {
      const words = turnWords(move.turns);
      if (used + words > budget) return false;
      used += words;
      return true;
    });
    if (chosen.length === 0) break;
    chosen.sort((a, b) => PHASE_ORDER.indexOf(a.phase) - PHASE_ORDER.indexOf(b.phase) || a.order - b.order);
    if (kind === 'meeting' && round > 0) {
      const agenda: Turn = ['rep', r.pick(['Okay, shall we move on to the next item?', 'Right, let me share the next slide.', 'Good, next on my list is this.'])];
      middle.push(agenda);
      used += wordsIn(agenda[1]);
    }
    for (const move of chosen) middle.push(...move.turns);
  }
  // Asides, then backchannel, close the gap to the wanted length, each said where the other side
  // was talking (so it stays a turn of its own).
  const asides = r.shuffle(ASIDES);
  while (budget - used >= 1) {
    const gap = budget - used;
    const turn = asides.find(([, text]) => wordsIn(text) <= gap) ?? r.pick(ACKNOWLEDGEMENTS.filter(([, text]) => wordsIn(text) <= gap));
    if (asides.includes(turn)) asides.splice(asides.indexOf(turn), 1);
    const places = middle.flatMap((_, i) => (i > 0 && middle[i - 1]![0] !== turn[0] && middle[i]![0] !== turn[0] ? [i] : []));
    middle.splice(places.length > 0 ? r.pick(places) : middle.length, 0, turn);
    used += wordsIn(turn[1]);
  }

  const turns = [...start, ...middle, ...end];
  const lines: DialogueLine[] = [];
  let clock = r.int(0, 3) * 1_000;
  let contactTurns = 0;
  for (const [side, text] of turns) {
    // In a meeting the customer's side is two people; the account holder speaks more.
    const speaker = side === 'rep' ? repFirst : relative && contactTurns++ % 3 === 2 ? relative : customer;
    const previous = lines.at(-1);
    // One speaker's consecutive moves are one turn, as a transcript would show them.
    if (previous && previous.speaker === speaker) previous.text = `${previous.text} ${text}`;
    else lines.push({ speaker, text, startMs: clock });
    // About 150 words a minute, and a pause between turns.
    clock += Math.round((wordsIn(text) / 2.5) * 1_000) + r.int(300, 1_200);
  }
  return { kind, representative: { firstName: repFirst, lastName: repLast }, lines, words: lines.reduce((sum, line) => sum + wordsIn(line.text), 0) };
}

const clockOf = (ms: number) => {
  const seconds = Math.floor(ms / 1_000);
  return [Math.floor(seconds / 3_600), Math.floor(seconds / 60) % 60, seconds % 60].map((part) => String(part).padStart(2, '0')).join(':');
};

/** The dialogue as an uploaded .txt transcript: `[hh:mm:ss] Name: words`, one turn a line. */
export function transcriptText(dialogue: Dialogue): string {
  return dialogue.lines.map((line) => `[${clockOf(line.startMs)}] ${line.speaker}: ${line.text}`).join('\n') + '\n';
}

/** The transcript transcription makes of the uploaded text (speakers and their roles included). */
export function transcriptOf(dialogue: Dialogue, activityId = 'bench-activity'): Transcript {
  const draft = transcribeText(
    {
      kind: dialogue.kind,
      teamId: 'bench-team',
      representativeEmail: `${dialogue.representative.firstName.toLowerCase()}@example.com`,
      representativeName: dialogue.representative.firstName,
      fileName: `${dialogue.kind}.txt`,
      mediaKind: 'text',
      mediaFormat: 'txt',
    },
    Buffer.from(transcriptText(dialogue)),
  );
  return { activityId, kind: activityKindOf(dialogue.kind), ...draft };
}
