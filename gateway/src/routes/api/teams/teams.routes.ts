import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { limitBy, type RateLimiter } from '../../../plugins/rate-limit.js';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { SIGNED_IN, SIGNED_IN_CHANGE } from '../../../schemas/security.schema.js';
import {
  AiSuggestionBody,
  AiSuggestionResponse,
  DepartmentQuery,
  TeamDeleteResponse,
  TeamIdParams,
  TeamMembersResponse,
  TeamResponse,
  TeamSaveBody,
  TeamSaveResponse,
  TeamsResponse,
} from '../../../schemas/teams.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { memberDraft, teamDraft, teamMemberView, teamView } from './team-views.js';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse } as const;

/**
 * Teams and their evaluation criteria (spec part 1 §7), kept by identity; criterion suggestions
 * come from scoring. Any member of the company, admin or manager, may read and change its teams.
 */
export async function teamsRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions; limiter: RateLimiter }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { teams } = options.services.identity;
  const { suggestions } = options.services.scoring;
  const tags = ['teams'];
  const signedIn = { preHandler: options.sessions.requireCaller };

  typed.get(
    '/api/teams/fetch/',
    {
      schema: {
        operationId: 'fetchTeams',
        summary: 'The company’s teams in the current department',
        description:
          'The department is sent as the `department` query parameter (the web app sends its selected department). Teams of other departments, deleted teams and other companies’ teams are never listed.',
        security: SIGNED_IN,
        tags,
        querystring: DepartmentQuery,
        response: { 200: TeamsResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => (await teams.listTeams({ department: request.query.department ?? '' }, callAs(request))).teams.map(teamView),
  );

  typed.get(
    '/api/teams/:id',
    {
      schema: { operationId: 'getTeam', summary: 'One team with its members', security: SIGNED_IN, tags, params: TeamIdParams, response: { 200: TeamResponse, ...errors } },
      ...signedIn,
    },
    async (request) => {
      const { team, members } = await teams.getTeam({ teamId: request.params.id }, callAs(request));
      return { team: teamView(team), members: members.map(teamMemberView) };
    },
  );

  typed.get(
    '/api/teams/:id/members',
    {
      schema: { operationId: 'getTeamMembers', summary: 'A team’s members with their daily targets', security: SIGNED_IN, tags, params: TeamIdParams, response: { 200: TeamMembersResponse, ...errors } },
      ...signedIn,
    },
    async (request) => (await teams.listTeamMembers({ teamId: request.params.id }, callAs(request))).members.map(teamMemberView),
  );

  typed.put(
    '/api/teams/save',
    {
      schema: {
        operationId: 'saveTeam',
        summary: 'Create or update a team with its criteria and members',
        description:
          "Refusals are 400 with the spec's sentence in `error` (indexes one-based). Duplicating a team is a save of the copy with isNew true and no members. Every save publishes identity.team-changed.v1 with the whole team.",
        security: SIGNED_IN_CHANGE,
        tags,
        body: TeamSaveBody,
        response: { 200: TeamSaveResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const body = request.body ?? {};
      const saved = await teams.saveTeam(
        { team: teamDraft(body.team), isNew: body.isNew === true, members: (body.members ?? []).map(memberDraft), keepMembers: body.members === undefined },
        callAs(request),
      );
      return { success: true as const, team: teamView(saved.team), members: saved.members.map(teamMemberView), created: !saved.existed };
    },
  );

  typed.delete(
    '/api/teams/:id',
    {
      schema: {
        operationId: 'deleteTeam',
        summary: 'Delete a team',
        description: 'The team leaves every list; calls and meetings already scored against it keep its criteria and stay in history and analytics.',
        security: SIGNED_IN_CHANGE,
        tags,
        params: TeamIdParams,
        response: { 200: TeamDeleteResponse, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      await teams.deleteTeam({ teamId: request.params.id }, callAs(request));
      return { success: true as const };
    },
  );

  typed.post(
    '/api/teams/ai-suggestion',
    {
      schema: {
        operationId: 'suggestCriterionPrompt',
        summary: 'Suggest an evaluation prompt for a criterion',
        description: 'Needs a criterion name. With an OpenAI-compatible model configured (SCORING_LLM_URL) the model writes it; otherwise the built-in engine.',
        security: SIGNED_IN_CHANGE,
        tags,
        body: AiSuggestionBody,
        response: { 200: AiSuggestionResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse },
      },
      preHandler: [options.sessions.requireCaller, limitBy(options.limiter, [['ai-suggestion', (request) => request.caller?.user.id ?? '']])],
    },
    async (request) => {
      const { suggestion, source } = await suggestions.suggestCriterionPrompt(
        { criterionName: request.body?.criterionName ?? '', criterionDescription: request.body?.criterionDescription ?? '' },
        callAs(request),
      );
      return { success: true as const, suggestion, source: source === 'model' ? ('model' as const) : ('offline' as const) };
    },
  );
}
