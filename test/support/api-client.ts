/**
 * A browser-like client of the Parlance API over real HTTP: it keeps the cookies the gateway
 * sets (session and CSRF secret), fetches a CSRF token before its first change request and sends
 * it as X-CSRF-Token, and takes the new token a sign-in answers with, as the web app does.
 */
export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

export interface RequestOptions {
  /** Leave out the X-CSRF-Token header (to test the check itself). */
  withoutCsrf?: boolean;
  headers?: Record<string, string>;
  /** Answer a redirect as it is (its Location in the headers) instead of following it. */
  keepRedirects?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class ApiClient {
  private readonly jar = new Map<string, string>();
  csrfToken: string | undefined;

  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  /** A cookie the gateway set and has not cleared. */
  cookie(name: string): string | undefined {
    return this.jar.get(name);
  }

  /** Every cookie value held, e.g. to check none of them is ever logged. */
  cookieValues(): string[] {
    return [...this.jar.values()];
  }

  setCookie(name: string, value: string): void {
    this.jar.set(name, value);
  }

  forgetCookies(): void {
    this.jar.clear();
    this.csrfToken = undefined;
  }

  async fetchCsrfToken(): Promise<string> {
    const response = await this.request<{ csrfToken: string }>('GET', '/api/csrf-token');
    if (response.status !== 200) throw new Error(`GET /api/csrf-token answered ${response.status}`);
    this.csrfToken = response.body.csrfToken;
    return this.csrfToken;
  }

  get<T = unknown>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, undefined, options);
  }

  post<T = unknown>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, body, options);
  }

  put<T = unknown>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, body, options);
  }

  delete<T = unknown>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, undefined, options);
  }

  /** A multipart/form-data POST, as a browser sends a file input. */
  postForm<T = unknown>(path: string, form: FormData, options?: RequestOptions) {
    return this.request<T>('POST', path, form, options);
  }

  async request<T = unknown>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...this.defaultHeaders, ...options.headers };
    if (!SAFE_METHODS.has(method) && !options.withoutCsrf) {
      headers['x-csrf-token'] = this.csrfToken ?? (await this.fetchCsrfToken());
    }
    // A form sets its own multipart content type, boundary included.
    const form = body instanceof FormData;
    if (body !== undefined && !form) headers['content-type'] = 'application/json';
    if (this.jar.size > 0) headers.cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(options.keepRedirects ? { redirect: 'manual' as const } : {}),
      ...(body !== undefined ? { body: form ? body : JSON.stringify(body) } : {}),
    });
    for (const line of response.headers.getSetCookie()) this.store(line);
    const text = await response.text();
    const parsed = (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as T;
    const token = (parsed as { csrfToken?: unknown } | undefined)?.csrfToken;
    if (typeof token === 'string') this.csrfToken = token;
    return { status: response.status, body: parsed, headers: response.headers };
  }

  private store(setCookie: string): void {
    const [pair = '', ...attributes] = setCookie.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attributes.some((attribute) => /^max-age=0$/i.test(attribute)) || value === '';
    if (expired) this.jar.delete(name);
    else this.jar.set(name, value);
  }
}

/** The first link in a text that points at `path` (e.g. '/auth/verify-email'). */
export function linkIn(text: string | undefined, path: string): URL {
  const match = (text ?? '').match(/https?:\/\/[^\s<>"]+/g)?.find((link) => new URL(link).pathname === path);
  if (!match) throw new Error(`no ${path} link in:\n${text}`);
  return new URL(match);
}
