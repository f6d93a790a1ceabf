/**
 * A stand-in for the speech server and its installer, for the supervisor's tests of what the real
 * ones rarely do on cue: die in a loop, fail to install, ignore SIGTERM, take long. The server is a
 * small Python HTTP server that takes the real one's arguments, prints `listening on HOST:PORT`
 * and answers `GET /health`; what it does is read from a file the test rewrites between starts
 * (`behave`), and every start is recorded (`starts`). The installer is a shell script with a chosen
 * exit code and delay. Both run from a temporary "virtual environment" whose python is the
 * system's python3. The real server and install.sh are tested in supervisor-real-server.test.ts.
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';

export type StandInBehaviour = 'serve' | 'die-before-listening' | 'die-after-listening' | 'serve-ignoring-sigterm';

export interface StandInSpeech {
  dir: string;
  venvDir: string;
  serverScript: string;
  installScript: string;
  /** What the server does from its next start on. */
  behave(behaviour: StandInBehaviour): Promise<void>;
  /** How the installer ends from its next run on, after sleeping `seconds`. */
  install(exitCode: number, seconds?: number, message?: string): Promise<void>;
  /** Every start of the server so far: when (ms since the epoch), its pid and the --threads it got. */
  starts(): Promise<Array<{ atMs: number; pid: number; threads: number }>>;
  /** The pids of the installer's sleeps, one per run. */
  installPids(): Promise<number[]>;
  remove(): Promise<void>;
}

const SERVER = `
import argparse, http.server, os, signal, sys, time
here = os.path.dirname(os.path.abspath(__file__))
parser = argparse.ArgumentParser()
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--threads", type=int, default=1)
args = parser.parse_args()
behaviour = open(os.path.join(here, "behaviour")).read().strip()
with open(os.path.join(here, "starts"), "a") as starts:
    starts.write(f"{time.time() * 1000:.0f} {os.getpid()} {args.threads}\\n")
if behaviour == "die-before-listening":
    print("stand-in: told to die before listening", file=sys.stderr, flush=True)
    sys.exit(3)

class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"OK"
        self.send_response(200 if self.path == "/health" else 404)
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer((args.host, args.port), Health)
print(f"listening on {args.host}:{server.server_address[1]}", flush=True)
if behaviour == "die-after-listening":
    time.sleep(0.3)
    print("stand-in: told to die after listening", file=sys.stderr, flush=True)
    os._exit(4)
if behaviour == "serve-ignoring-sigterm":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
server.serve_forever()
`;

const INSTALL = `#!/usr/bin/env bash
here="$(cd "$(dirname "\${BASH_SOURCE[0]}")" && pwd)"
read -r code seconds message < "$here/install-behaviour"
sleep "$seconds" &
echo $! >> "$here/install-pids"
wait $!
[[ -n $message ]] && echo "$message" >&2
exit "$code"
`;

export async function createStandInSpeech(): Promise<StandInSpeech> {
  const dir = await mkdtemp(join(tmpdir(), 'parlance-speech-stand-in-'));
  const venvDir = join(dir, 'venv');
  await mkdir(join(venvDir, 'bin'), { recursive: true });
  await symlink(execFileSync('sh', ['-c', 'command -v python3']).toString().trim(), join(venvDir, 'bin', 'python'));
  const serverScript = join(dir, 'server.py');
  const installScript = join(dir, 'install.sh');
  await writeFile(serverScript, SERVER);
  await writeFile(installScript, INSTALL);
  await chmod(installScript, 0o755);
  const stand: StandInSpeech = {
    dir,
    venvDir,
    serverScript,
    installScript,
    behave: (behaviour) => writeFile(join(dir, 'behaviour'), behaviour),
    install: (exitCode, seconds = 0, message = '') => writeFile(join(dir, 'install-behaviour'), `${exitCode} ${seconds} ${message}\n`),
    async starts() {
      const text = await readFile(join(dir, 'starts'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [atMs, pid, threads] = line.split(' ').map(Number);
          return { atMs: atMs!, pid: pid!, threads: threads! };
        });
    },
    async installPids() {
      const text = await readFile(join(dir, 'install-pids'), 'utf8').catch(() => '');
      return text.split('\n').filter(Boolean).map(Number);
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  await stand.behave('serve');
  await stand.install(0);
  return stand;
}

/** Whether a process with this pid exists (a zombie counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // The state follows the command name in parentheses; Z is a zombie.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
