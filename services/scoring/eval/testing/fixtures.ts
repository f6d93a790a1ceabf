/**
 * A tiny datasets folder, laid out like shared/datasets, written by the tests (never the real
 * data). Label fields carry the word LEAKED so a test can prove none reaches the engine.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function compliBenchConversation(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    domain: 'LEAKED-domain',
    intent_name: 'refund_request',
    assistant_guidelines: {
      'Category 1: Universal Compliance': { tone: 'Keep a friendly and professional tone.' },
      'Category 2: Intent Triggered Guidelines': {
        refund_request: {
          'Phase 1': "Greeting: Welcome the caller with 'Hello, thanks for calling Skyway'.",
          'Phase 2': 'Ask for booking reference: Request the booking reference before anything else.',
          'Phase 10': 'Close the call politely and thank the caller for choosing Skyway airlines today, then make sure nothing else is needed: wrap up.',
        },
      },
      'Category 3: Condition Triggered Guidelines': {
        human_request: 'If the caller asks for a human, transfer to a human representative.',
      },
    },
    assistant_guidelines_shuffled: { 'Category 2: Intent Triggered Guidelines': { refund_request: { 'Phase 1': 'LEAKED shuffled guideline' } } },
    cat2_overrides: [{ phase: 'Phase 2', original: 'x', modified: 'LEAKED override' }],
    cat3_overrides: [],
    violation_directives: [{ modified: 'LEAKED directive' }],
    message_list: [
      { turn_index: 0, role: 'assistant', content: 'Hello, thanks for calling Skyway.', category: 'LEAKED-category', key: 'refund_request', phase: 1, guideline_text: 'LEAKED guideline text' },
      { turn_index: 1, role: 'user', content: 'I want a refund and I want a human.' },
      { turn_index: 2, role: 'assistant', content: 'Please send your card number first.', category: 'Category 2', key: 'refund_request', phase: 2, guideline_text: 'LEAKED bad guideline' },
      { turn_index: 3, role: 'user', content: 'Fine.' },
      { turn_index: 4, role: 'assistant', content: 'I cannot transfer you. Thank you for choosing Skyway airlines today, nothing else is needed.' },
    ],
    mistakes: [
      { turn_index: 2, 'guidance category': 'Category 2: Intent Triggered Guidelines', 'guidance key': 'refund_request', guideline_phase: 2, guideline: 'LEAKED mistake guideline', evidence: 'LEAKED evidence' },
      { turn_index: 4, 'guidance category': 'Category 3: Condition Triggered Guidelines', 'guidance key': 'human_request', guideline_phase: -1, guideline: 'LEAKED', evidence: 'LEAKED' },
    ],
    ...overrides,
  };
}

/** A persuasion dialogue file: d1 (persuadee gave 0.5), d2 (gave 0), d3 (no persuadee row). A row of d1's turn 1 comes before one of its turn 0 on purpose. */
export const PERSUASION_DIALOG_CSV = [
  ',Unit,Turn,B4,B2',
  '0,Hi there!,0,0,d1',
  '1,"Would you donate to Save the Children, today?",0,0,d1',
  '2,Great.,1,0,d1',
  '3,Hello.,0,1,d1',
  '4,"Yes, I will donate.",1,1,d1',
  '5,Hi.,0,0,d2',
  '6,"No thanks, I keep my money.",0,1,d2',
  '7,Hey.,0,0,d3',
].join('\r\n');

export const PERSUASION_INFO_CSV = ['B2,B3,B4,B6,B7', 'd1,u1,0,0.0,2', 'd1,u2,1,0.5,2', 'd2,u3,0,1.0,1', 'd2,u4,1,0.0,1', 'd3,u5,0,0.0,1'].join('\r\n');

export function qmsumMeeting(answer = 'The team agreed the remote would be yellow.'): Record<string, unknown> {
  return {
    topic_list: [],
    general_query_list: [{ query: 'Summarize the whole meeting.', answer }],
    specific_query_list: [],
    meeting_transcripts: [
      { speaker: 'Project Manager', content: 'Okay , the remote {vocalsound} will be yellow .' },
      { speaker: 'Marketing', content: 'Yellow is fine .' },
      { speaker: 'Project Manager', content: 'Agreed then .' },
    ],
  };
}

export const ABCD_KB = {
  return_size: ['pull-up-account', 'validate-purchase', 'membership', 'enter-details', 'update-order'],
  refund_status: ['pull-up-account', 'validate-purchase', 'notify-team', 'update-order'],
  timing: ['search-faq', 'search-timing', 'select-faq'],
  pricing: ['search-faq', 'search-pricing', 'select-faq'],
};

export const ABCD_ONTOLOGY = { intents: { flows: ['product_defect', 'storewide_query'], subflows: { product_defect: ['refund_status', 'return_size'], storewide_query: ['pricing', 'timing'] } } };

export const ABCD_GUIDELINES = {
  'Product Defect': {
    description: 'refunds and returns',
    subflows: {
      'Return Due to Size': {
        actions: [
          { type: 'interaction', button: 'Pull up Account', text: 'Get Full Name or Account ID for [Pull up Account]', subtext: [] },
          { type: 'kb query', button: 'Validate Purchase', text: 'Confirm that their purchase is valid with [Validate Purchase]', subtext: ['Username', 'Email Address'] },
        ],
      },
      'Refund Status': {
        actions: [{ type: 'interaction', button: 'Notify Internal Team', text: 'If the customer is not satisfied, escalate', subtext: ["Enter 'manager' into [Notify Internal Team]"] }],
      },
    },
  },
  'Storewide Query': { description: 'faq', subflows: { 'Timing FAQ': { actions: [{ type: 'faq/policy', button: 'Search FAQ', text: 'Click the [Search FAQ] button', subtext: [] }] } } },
};

export function abcdConversation(): Record<string, unknown> {
  const turns: [string, string, unknown[] | null][] = [
    ['agent', 'Hi! May I have your full name?', null],
    ['customer', 'Crystal Minh. I got the wrong size.', null],
    ['action', 'Account has been pulled up for Crystal Minh.', ['return_size', 'take_action', 'pull-up-account', ['crystal minh'], -1]],
    ['agent', 'Thanks, I will escalate this to my manager.', null],
    ['action', 'The manager has been notified.', ['return_size', 'take_action', 'notify-team', ['manager'], -1]],
    ['action', 'Details of (977) 625-2661 have been entered.', null],
  ];
  return {
    convo_id: 42,
    scenario: { flow: 'product_defect', subflow: 'return_size' },
    original: turns.map(([speaker, text]) => [speaker, text]),
    delexed: turns.map(([speaker, text, targets]) => ({ speaker, text: text.toLowerCase(), targets: targets ?? ['return_size', 'retrieve_utterance', null, [], 3] })),
  };
}

export function abcdFaqConversation(): Record<string, unknown> {
  const original = [
    ['customer', 'When does the annual sale begin?'],
    ['action', 'Searching the FAQ pages ...'],
    ['action', 'System Action: search timing'],
    ['agent', 'It begins in March.'],
  ];
  return {
    convo_id: 7,
    scenario: { flow: 'storewide_query', subflow: 'timing_4' },
    original,
    delexed: original.map(([speaker, text]) => ({ speaker, text, targets: ['timing', speaker === 'action' ? 'take_action' : 'retrieve_utterance', null, [], -1] })),
  };
}

/** Every folder writeDatasets has made and removeDatasets has not yet removed. */
const written: string[] = [];

/** Removes every folder writeDatasets has made; call it from afterAll in a test file that writes them. */
export async function removeDatasets(): Promise<void> {
  const roots = written.splice(0);
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
}

/** Writes the whole fixture folder (removeDatasets deletes it); `without` leaves datasets out. */
export async function writeDatasets(without: readonly string[] = []): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'parlance-eval-'));
  written.push(root);
  const put = async (path: string, content: string) => {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), content);
  };
  if (!without.includes('complibench')) {
    await put('complibench/airlines/conversation_00001.json', JSON.stringify(compliBenchConversation()));
    await put('complibench/airlines/conversation_00002.json', JSON.stringify(compliBenchConversation({ mistakes: [] })));
    await put('complibench/airlines/readme.md', '# not a conversation');
    await put('complibench/insurance/conversation_00009.json', JSON.stringify(compliBenchConversation()));
    await put('complibench/insurance/conversation_00010.json', '{ not json');
  }
  if (!without.includes('persuasionforgood')) {
    await put('persuasionforgood/full_dialog.csv', PERSUASION_DIALOG_CSV);
    await put('persuasionforgood/full_info.csv', PERSUASION_INFO_CSV);
  }
  if (!without.includes('qmsum')) {
    await put('qmsum/test.jsonl', [qmsumMeeting(), { general_query_list: [] }, qmsumMeeting('Yellow it is.')].map((line) => JSON.stringify(line)).join('\n') + '\n');
  }
  if (!without.includes('abcd')) {
    await put('abcd/abcd_sample.json', JSON.stringify([abcdConversation(), abcdFaqConversation()]));
    await put('abcd/kb.json', JSON.stringify(ABCD_KB));
    await put('abcd/ontology.json', JSON.stringify(ABCD_ONTOLOGY));
    await put('abcd/guidelines.json', JSON.stringify(ABCD_GUIDELINES));
  }
  return root;
}
