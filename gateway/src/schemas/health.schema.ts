import Type from 'typebox';

export const ModuleHealth = Type.Object({
  name: Type.String({ description: 'service name, e.g. scoring' }),
  state: Type.Union([Type.Literal('serving'), Type.Literal('not serving'), Type.Literal('unreachable')]),
});

export const HealthResponse = Type.Object(
  {
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
    version: Type.String(),
    mode: Type.Union([Type.Literal('standalone'), Type.Literal('distributed')]),
    modules: Type.Array(ModuleHealth),
  },
  { $id: 'HealthResponse' },
);
