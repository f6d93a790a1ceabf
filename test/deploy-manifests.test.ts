/**
 * The deployment as Kubernetes would receive it: helm/parlance rendered by a real helm (built by
 * scripts/check-deploy.sh), parsed and checked against the conventions of DESIGN.md. There is no
 * cluster or Docker engine here, so this is as far as the manifests can be exercised.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, parse } from 'yaml';
import { repoRoot } from './support/host-process.js';

const run = promisify(execFile);
const SERVICES = ['identity', 'ingest', 'transcription', 'scoring', 'analytics', 'integration'];
const DEPLOYABLES = [...SERVICES, 'gateway'];

interface Container {
  name: string;
  image: string;
  args?: string[];
  env: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }>;
  livenessProbe?: { httpGet: { path: string; port: string } };
  readinessProbe?: { httpGet: { path: string; port: string } };
  ports: Array<{ name: string; containerPort: number }>;
  securityContext?: { allowPrivilegeEscalation?: boolean; readOnlyRootFilesystem?: boolean };
}
interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: {
    template?: { spec: { securityContext?: { runAsNonRoot?: boolean }; containers: Container[] } };
    ports?: Array<{ name: string; port: number }>;
  };
}

let manifests: Manifest[];

beforeAll(async () => {
  const { stdout: helm } = await run('scripts/check-deploy.sh', ['--helm-path'], { cwd: repoRoot, timeout: 600_000 });
  const { stdout } = await run(
    helm.trim(),
    ['template', 'parlance', 'helm/parlance', '--set', 'global.databaseUrl=postgres://u:p@db:5432/parlance', '--set', 'image.registry=registry.test'],
    { cwd: repoRoot },
  );
  manifests = parseAllDocuments(stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}, 600_000);

const deployment = (service: string) => manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === `parlance-${service}`)!;
const container = (service: string) => deployment(service).spec.template!.spec.containers[0]!;

describe('helm/parlance', () => {
  it('renders one Deployment and one Service per deployable, named after it', () => {
    for (const service of DEPLOYABLES) {
      expect(deployment(service), service).toBeDefined();
      expect(manifests.find((m) => m.kind === 'Service' && m.metadata.name === `parlance-${service}`), service).toBeDefined();
    }
    expect(manifests.filter((m) => m.kind === 'Deployment')).toHaveLength(DEPLOYABLES.length);
  });

  it('runs each image named after its folder, with its own target', () => {
    for (const service of DEPLOYABLES) {
      expect(container(service).image).toBe(`registry.test/${service}:0.1.0`);
      expect(container(service).args).toEqual([`--target=${service}`]);
    }
  });

  it('probes every container on the admin port: /healthz for liveness, /readyz for readiness', () => {
    for (const service of DEPLOYABLES) {
      expect(container(service).livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'admin' });
      expect(container(service).readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'admin' });
      expect(container(service).ports.find((port) => port.name === 'admin')?.containerPort).toBe(9400);
    }
  });

  it('tells the gateway where each service is, at that service’s Kubernetes Service', () => {
    const env = container('gateway').env;
    for (const service of SERVICES) {
      expect(env.find((entry) => entry.name === `${service.toUpperCase()}_GRPC_ADDR`)?.value, service).toBe(`parlance-${service}:50051`);
    }
  });

  it('runs as non-root without privilege escalation, on a read-only root filesystem', () => {
    for (const service of DEPLOYABLES) {
      expect(deployment(service).spec.template!.spec.securityContext?.runAsNonRoot).toBe(true);
      expect(container(service).securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    }
  });

  it('takes DATABASE_URL from a Secret, never from a plain value', () => {
    for (const service of DEPLOYABLES) {
      const entry = container(service).env.find((e) => e.name === 'DATABASE_URL');
      expect(entry?.value).toBeUndefined();
      expect(entry?.valueFrom?.secretKeyRef).toEqual({ name: 'parlance-database', key: 'DATABASE_URL' });
    }
  });
});

describe('images', () => {
  it('builds every image skaffold names with the shared Dockerfile and the service as build argument', () => {
    const skaffold = parse(readFileSync(path.join(repoRoot, 'skaffold.yaml'), 'utf8')) as {
      build: { artifacts: Array<{ image: string; docker: { dockerfile: string; buildArgs: { SERVICE: string } } }> };
    };
    expect(skaffold.build.artifacts.map((artifact) => artifact.image).sort()).toEqual([...DEPLOYABLES].sort());
    for (const artifact of skaffold.build.artifacts) {
      expect(existsSync(path.join(repoRoot, artifact.docker.dockerfile))).toBe(true);
      expect(artifact.docker.buildArgs.SERVICE).toBe(artifact.image);
      const entry = artifact.image === 'gateway' ? 'gateway/src/main.ts' : `services/${artifact.image}/src/main.ts`;
      expect(existsSync(path.join(repoRoot, entry)), entry).toBe(true);
    }
  });

  it('starts the image’s deployable through the entrypoint with the pod’s arguments', async () => {
    for (const service of ['scoring', 'gateway']) {
      const { stdout } = await run('deploy/docker/entrypoint.sh', ['--list-targets'], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '', SERVICE: service },
      });
      expect(stdout, service).toContain(service === 'gateway' ? 'gateway\n' : `${service} ← needs bus, database, grpc-server`);
    }
  }, 60_000);
});
