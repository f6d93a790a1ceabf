import Type from 'typebox';

export const WebConfigResponse = Type.Object(
  {
    googleClientId: Type.Union([Type.String(), Type.Null()], { description: 'OAuth client id for Google Identity Services; null hides the Google button' }),
    demoSchedulingUrl: Type.Union([Type.String(), Type.Null()], { description: 'scheduling page the demo modal frames; null when none is set' }),
    demoContactEmail: Type.String({ description: 'where demo requests go when no scheduling page is set' }),
    analyticsScriptUrl: Type.Union([Type.String(), Type.Null()], { description: 'web analytics script loaded on start; null loads none' }),
  },
  { $id: 'WebConfig' },
);
