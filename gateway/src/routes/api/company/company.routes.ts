import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { CompanyWithTeamsView } from '../../../schemas/identity.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { companyView } from '../identity-views.js';
import { companyTeamView } from '../teams/team-views.js';

/** GET /api/company: the signed-in user's company with its teams of every department (spec part 1 §3 and §7). */
export async function companyRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/api/company',
    {
      schema: { operationId: 'getCompany', summary: 'The signed-in user’s company', security: SIGNED_IN, tags: ['company'], response: { 200: CompanyWithTeamsView, 401: ErrorResponse, 403: ErrorResponse } },
      preHandler: options.sessions.requireCaller,
    },
    async (request) => {
      const { accounts, teams } = options.services.identity;
      const [{ company }, { teams: companyTeams }] = await Promise.all([accounts.getCompany({}, callAs(request)), teams.listTeams({ department: '' }, callAs(request))]);
      return { ...companyView(company), teams: companyTeams.map(companyTeamView) };
    },
  );
}
