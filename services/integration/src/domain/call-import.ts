/**
 * What every vendor's import shares (Close's and HubSpot's calls, Google Workspace's meetings):
 * whose call it is, why one is passed over, and the call as the sync sends it to ingest. Pure.
 */

/** A team as the sync sees it: identity's, with each member's CRM user id when the team editor has it (crm_id). */
export interface TeamRoster {
  id: string;
  department: string;
  members: { email: string; firstName: string; crmId: string }[];
}

export interface Representative {
  teamId: string;
  email: string;
  firstName: string;
}

/** A vendor's user (a Close user, a HubSpot owner, a Workspace account) to its representative. */
export type FindRepresentative = (user: { id: string; email: string }) => Representative | undefined;

/**
 * Finds the representative a vendor user's calls belong to: the member whose crm_id is the user's
 * id, else whose e-mail is the user's. A person in several teams is taken in a sales team first
 * (the CRMs are sales tools), then in the oldest team.
 */
export function representativeFinder(teams: readonly TeamRoster[]): FindRepresentative {
  const ordered = [...teams.filter((team) => team.department === 'sales'), ...teams.filter((team) => team.department !== 'sales')];
  const byCrmId = new Map<string, Representative>();
  const byEmail = new Map<string, Representative>();
  for (const team of ordered) {
    for (const member of team.members) {
      const representative = { teamId: team.id, email: member.email.toLowerCase(), firstName: member.firstName };
      if (member.crmId !== '' && !byCrmId.has(member.crmId)) byCrmId.set(member.crmId, representative);
      if (!byEmail.has(representative.email)) byEmail.set(representative.email, representative);
    }
  }
  return (user) => byCrmId.get(user.id) ?? (user.email === '' ? undefined : byEmail.get(user.email.toLowerCase()));
}

export type SkipReason = 'too-short' | 'no-conversation' | 'no-representative';

/** A call or meeting worth importing, as the sync sends it to ingest (Close's, HubSpot's calls, Google Workspace's meetings). */
export interface CallImport {
  /** The vendor's call id: the idempotency key of the import. */
  externalId: string;
  /** Close: where a note or status goes back to after scoring; '' for HubSpot. */
  leadId: string;
  /** HubSpot: the call's contacts and owner, where its note and task go. */
  vendorRefs?: { contactIds: string[]; ownerId?: string };
  representative: Representative;
  occurredAt: Date;
  fileName: string;
  notes: string;
  contactId: string;
  /** The person spoken with, when the source names them. */
  contactName: string;
  media: { kind: 'text'; text: string } | { kind: 'audio'; recordingUrl: string };
  /** A meeting (Google Workspace's transcripts) rather than a call: its title, link and the person met. */
  meeting?: { title: string; link: string };
}
