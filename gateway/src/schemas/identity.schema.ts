/**
 * Payloads of the sign-in, company, member and profile calls (spec part 1, §3 and §7). Body
 * fields are optional in the schemas on purpose: identity checks them and answers with the
 * spec's own sentences ('Email and password are required.'), which a schema error could not.
 * Lengths are bounded here only to keep request bodies small.
 */
import Type from 'typebox';
import { CompanyTeamView } from './teams.schema.js';

const Email = Type.String({ maxLength: 320, description: 'e-mail address' });
const Name = Type.String({ maxLength: 200 });
const Role = Type.String({ maxLength: 20, description: "'admin' or 'manager'" });

export const UserView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('manager')]),
  },
  { $id: 'User' },
);

export const CompanyView = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    departments: Type.Array(Type.String(), { description: "department keys: 'sales' (Sales), 'hr' (HR), 'support' (Customer Support), others as given" }),
  },
  { $id: 'Company' },
);

/** GET /api/company: the company with its teams (every department's; the app filters by its current one). */
export const CompanyWithTeamsView = Type.Object({ ...CompanyView.properties, teams: Type.Array(CompanyTeamView) }, { $id: 'CompanyWithTeams' });

export const SessionResponse = Type.Object({ user: UserView, company: CompanyView });

/** After a sign-in the CSRF cookie is new; this is a token for it, so the app need not fetch one. */
export const SignedInResponse = Type.Object({
  user: UserView,
  company: CompanyView,
  csrfToken: Type.String({ description: 'CSRF token for the new CSRF cookie set with this response' }),
});

export const CsrfTokenResponse = Type.Object({ csrfToken: Type.String({ description: 'send as X-CSRF-Token on every non-GET request' }) });

export const LoginBody = Type.Object({ email: Type.Optional(Email), password: Type.Optional(Type.String({ maxLength: 1024 })) });

export const SignupBody = Type.Object({
  firstName: Type.Optional(Name),
  lastName: Type.Optional(Name),
  email: Type.Optional(Email),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
});

export const SignupResponse = Type.Object({
  success: Type.Literal(true),
  emailSent: Type.Literal(true),
  email: Type.String({ description: 'where the verification link went' }),
  message: Type.String(),
});

export const VerifyEmailBody = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

export const GoogleSignupBody = Type.Object({
  idToken: Type.Optional(
    Type.String({ maxLength: 8192, description: 'the Google ID token (JWT) from Google Identity Services; the server verifies it and trusts nothing else' }),
  ),
  email: Type.Optional(Type.String({ maxLength: 320, description: 'ignored: the verified ID token says who this is' })),
  firstName: Type.Optional(Type.String({ maxLength: 200, description: 'ignored' })),
  lastName: Type.Optional(Type.String({ maxLength: 200, description: 'ignored' })),
  googleId: Type.Optional(Type.String({ maxLength: 200, description: 'ignored: never trusted from the client' })),
});

export const GoogleSignupResponse = Type.Object({
  user: UserView,
  company: CompanyView,
  csrfToken: Type.String(),
  created: Type.Boolean({ description: 'true when this sign-in created the account' }),
});

export const SuccessResponse = Type.Object({ success: Type.Literal(true), message: Type.Optional(Type.String()) });

export const InviteBody = Type.Object({ email: Type.Optional(Email), role: Type.Optional(Role) });

export const InviteResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  invitation: Type.Object({ email: Type.String(), role: Type.String(), expiresAt: Type.String({ format: 'date-time' }) }),
});

export const AcceptInviteQuery = Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) });

export const AcceptInviteResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  email: Type.String({ description: 'the invited address' }),
  requiresSignUp: Type.Boolean({ description: 'true when no account has this address yet: sign up with it to join' }),
  requiresSignIn: Type.Boolean({
    description: 'true when the address has an account in another company: sign in as it, then open the link again (nothing changed yet)',
  }),
  companyName: Type.String(),
  role: Type.String(),
});

export const MemberView = Type.Object(
  {
    first_name: Type.String(),
    last_name: Type.String(),
    email: Type.String(),
    role: Type.Union([Type.Literal('admin'), Type.Literal('manager')]),
  },
  { $id: 'CompanyMember' },
);

export const MembersResponse = Type.Array(MemberView);

export const MemberParams = Type.Object({ email: Type.String({ maxLength: 320, description: "the member's e-mail address" }) });

export const UpdateRoleBody = Type.Object({ role: Type.Optional(Role) });

export const UpdateRoleResponse = Type.Object({ success: Type.Literal(true), message: Type.String(), member: MemberView });

export const ProfileBody = Type.Object({ firstName: Type.Optional(Name), lastName: Type.Optional(Name) });

export const ProfileResponse = Type.Object({ success: Type.Literal(true), user: UserView });
