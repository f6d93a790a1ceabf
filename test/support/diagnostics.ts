/** The operators' secret the process tests start Parlance with, and the header that carries it. */
export const DIAGNOSTICS_TOKEN = 'process-tests-diagnostics-token';
export const operatorHeaders = { 'x-diagnostics-token': DIAGNOSTICS_TOKEN } as const;
