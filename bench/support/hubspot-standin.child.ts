/**
 * The HubSpot stand-in (services/integration/test/support/hubspot-standin.ts) in a process of its
 * own, for bench/integrations.bench.ts: HubSpot is another machine, so its answering neither
 * shares the bench's event loop nor counts in the memory the bench measures. It holds the calls
 * it is told to make (hubspot-standin-process.ts) and answers the parent's messages: tokens as if
 * a user had consented, and counts of the requests received so far.
 */
import { HUBSPOT_STANDIN_SEED, startHubSpotStandin } from '../../services/integration/test/support/hubspot-standin.js';
import type { StandinRequest, StandinReply, StandinWorld } from './hubspot-standin-process.js';

const world = JSON.parse(process.env.BENCH_HUBSPOT_WORLD ?? '') as StandinWorld;
const send = (reply: StandinReply) => process.send!(reply);

const callId = (index: number) => String(world.firstCallId + index);
const ids = Array.from({ length: world.calls }, (_, index) => callId(index));
// One recording shared by every call: the stand-in serves bytes, it need not hold 10,000 copies.
const recording = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(world.recordingBytes - 4, 0)]);
const owner = HUBSPOT_STANDIN_SEED.owners.find((candidate) => candidate.email === world.ownerEmail)!;

const standin = await startHubSpotStandin({
  recordings: Object.fromEntries(ids.map((id) => [id, recording])),
  callContacts: Object.fromEntries(ids.map((id, index) => [id, [String(world.firstContactId + index)]])),
});
standin.addCalls(world.calls, (index) => {
  const modifiedMs = world.firstModifiedMs + index * world.modifiedStepMs;
  return {
    id: callId(index),
    properties: {
      hs_timestamp: new Date(modifiedMs - 10 * 60_000).toISOString(),
      hs_lastmodifieddate: new Date(modifiedMs).toISOString(),
      hs_call_duration: String(world.durationMs),
      hs_call_recording_url: standin.recordingUrlOf(callId(index)),
      hs_call_title: `Discovery call ${callId(index)}`,
      hs_call_body: '<p>Asked for a quote for <b>40 seats</b>; follow up next week.</p>',
      hs_call_direction: 'OUTBOUND',
      hubspot_owner_id: owner.id,
    },
  };
});

process.on('message', (message: StandinRequest) => {
  switch (message.type) {
    case 'tokens':
      return send({ type: 'tokens', ...standin.issueTokens() });
    case 'counts': {
      const byRoute: Record<string, number> = {};
      let searchRestarts = 0;
      for (const request of standin.requests) {
        const route = `${request.method} ${request.path.startsWith('/recordings/') ? '/recordings/{id}' : request.path}`;
        byRoute[route] = (byRoute[route] ?? 0) + 1;
        // A search that starts again from the first page: the first of a sync, and each after the 10,000-result cap.
        const body = request.body as { after?: unknown } | undefined;
        if (route === 'POST /crm/v3/objects/calls/search' && body?.after === undefined) searchRestarts += 1;
      }
      return send({ type: 'counts', requests: standin.requests.length, byRoute, searchesFromTheStart: searchRestarts });
    }
    case 'stop':
      void standin.close().then(() => process.exit(0));
  }
});
send({ type: 'ready', baseUrl: standin.baseUrl, authorizeUrl: standin.authorizeUrl });
