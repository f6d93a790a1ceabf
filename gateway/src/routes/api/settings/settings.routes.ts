import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { callAs, type Sessions } from '../../../plugins/sessions.js';
import { SIGNED_IN, SIGNED_IN_CHANGE } from '../../../schemas/security.schema.js';
import { ErrorResponse } from '../../../schemas/error.schema.js';
import {
  MemberParams,
  MembersResponse,
  ProfileBody,
  ProfileResponse,
  SuccessResponse,
  UpdateRoleBody,
  UpdateRoleResponse,
} from '../../../schemas/identity.schema.js';
import type { ServiceClients } from '../../../service-clients.js';
import { memberView, userView } from '../identity-views.js';

export const SETTINGS_MESSAGES = {
  roleUpdated: 'Member role updated successfully',
  removed: 'Member removed successfully',
} as const;

/** Settings: the company's members (roles, removal; admins only) and the user's own profile. */
export async function settingsRoutes(app: FastifyInstance, options: { services: ServiceClients; sessions: Sessions }): Promise<void> {
  const typed = app.withTypeProvider<TypeBoxTypeProvider>();
  const { accounts } = options.services.identity;
  const { sessions } = options;
  const tags = ['settings'];
  const signedIn = { preHandler: sessions.requireCaller };

  typed.get(
    '/api/settings/members',
    { schema: { operationId: 'listMembers', summary: 'The company’s members', security: SIGNED_IN, tags, response: { 200: MembersResponse, 401: ErrorResponse, 403: ErrorResponse } }, ...signedIn },
    async (request) => (await accounts.listMembers({}, callAs(request))).members.map(memberView),
  );

  typed.put(
    '/api/settings/members/:email',
    {
      schema: {
        operationId: 'updateMemberRole',
        summary: 'Change a member’s role (admins only; the last admin cannot be demoted)',
        security: SIGNED_IN_CHANGE,
        tags,
        params: MemberParams,
        body: UpdateRoleBody,
        response: { 200: UpdateRoleResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      ...signedIn,
    },
    async (request) => {
      const { member } = await accounts.changeMemberRole({ email: request.params.email, role: request.body?.role ?? '' }, callAs(request));
      return { success: true as const, message: SETTINGS_MESSAGES.roleUpdated, member: memberView(member) };
    },
  );

  typed.delete(
    '/api/settings/members/:email',
    {
      schema: {
        operationId: 'removeMember',
        summary: 'Remove a member from the company (admins only; the last admin cannot be removed)',
        security: SIGNED_IN_CHANGE,
        tags,
        params: MemberParams,
        response: { 200: SuccessResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse },
      },
      ...signedIn,
    },
    async (request, reply) => {
      const { removedSelf } = await accounts.removeMember({ email: request.params.email }, callAs(request));
      if (removedSelf) sessions.cookies.endSession(reply);
      return reply.send({ success: true as const, message: SETTINGS_MESSAGES.removed });
    },
  );

  typed.put(
    '/api/settings/profile/update',
    {
      schema: {
        operationId: 'updateProfile',
        summary: 'Update the signed-in user’s first and last name',
        security: SIGNED_IN_CHANGE,
        tags,
        body: ProfileBody,
        response: { 200: ProfileResponse, 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse },
      },
      ...signedIn,
    },
    async (request) => {
      const { user } = await accounts.updateProfile(
        {
          ...(request.body.firstName !== undefined ? { firstName: request.body.firstName } : {}),
          ...(request.body.lastName !== undefined ? { lastName: request.body.lastName } : {}),
        },
        callAs(request),
      );
      return { success: true as const, user: userView(user) };
    },
  );
}
