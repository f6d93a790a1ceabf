/**
 * What the upload tests share: a stand-in for XMLHttpRequest (jsdom's would go to the network),
 * the teams and representatives the gateway offers, the toasts shown and files of any size.
 */
import { vi } from 'vitest';
import type { TeamMember } from '../../../lib/api/gateway-api.generated';
import { jsonResponse } from '../../../testing/json-response';
import { makeTeam } from '../activity-test-fixtures';

type Listener = ((event: { lengthComputable: boolean; loaded: number; total: number }) => void) | null;

/** One request made with the fake XMLHttpRequest; the test answers it. */
export class FakeXhr {
  static sent: FakeXhr[] = [];
  /** Answers each request as it is sent, when set. */
  static autoAnswer: ((xhr: FakeXhr) => void) | null = null;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  withCredentials = false;
  body: FormData | null = null;
  status = 0;
  responseText = '';
  upload: { onprogress: Listener } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
    FakeXhr.autoAnswer?.(this);
  }

  abort() {
    this.onabort?.();
  }

  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ lengthComputable: true, loaded, total });
  }

  answer(status: number, body: unknown) {
    this.status = status;
    this.responseText = body === undefined ? '' : JSON.stringify(body);
    this.onload?.();
  }

  fail() {
    this.onerror?.();
  }

  /** The form's text fields, and the file's name. */
  fields() {
    const entries: Record<string, string> = {};
    this.body?.forEach((value, key) => {
      entries[key] = typeof value === 'string' ? value : (value as File).name;
    });
    return entries;
  }
}

export function stubXhr() {
  FakeXhr.sent = [];
  FakeXhr.autoAnswer = null;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}

export const ada: TeamMember = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', crm_id: '', target: 0 };
export const alan: TeamMember = { first_name: '', last_name: '', email: 'alan@example.com', crm_id: '', target: 0 };

/** The teams of 'sales' (and one of 'hr', which must not show), and their members. */
export const teamRoutes = {
  'GET /api/teams/fetch/': () => jsonResponse([makeTeam(), makeTeam({ id: 'team-2', name: 'Outbound sales', members: [] }), makeTeam({ id: 'team-3', name: 'Recruiting', department: 'hr' })]),
  'GET /api/teams/team-1/members': () => jsonResponse([ada, alan]),
  'GET /api/teams/team-2/members': () => jsonResponse({ error: 'boom' }, 500),
};

/** The texts and kinds of the toasts on screen. */
export const toasts = () => Array.from(document.querySelectorAll('.toast')).map((toast) => `${toast.className.replace('toast toast--', '')}: ${toast.textContent}`);

/** A file of a given size without allocating it. */
export function sizedFile(name: string, size: number, content = 'x', type = '') {
  const file = new File([content], name, { type, lastModified: Date.UTC(2025, 2, 4, 10, 30) });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
