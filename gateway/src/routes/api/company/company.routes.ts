import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { SIGNED_IN } from '../../../schemas/security.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import { CompanyView } from '../../../schemas/identity.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { companyView } from '../identity-views.js';

/** GET /api/company: the signed-in user's company (spec part 1, §7). */
export async function companyRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  typed.get(
    '/api/company',
    {
      schema: { summary: 'The signed-in user’s company', security: SIGNED_IN, tags: ['company'], response: { 200: CompanyView, 401: ErrorResponse, 403: ErrorResponse } },
      preHandler: options.sessions.requireCaller,
    },
    async (request) => {
      const { company } = await options.services.identity.accounts.getCompany({}, callAs(request));
      return companyView(company);
    },
  );
}
