import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Before any test: PostgreSQL and Redis must answer (started when installed but stopped). */
export default function setup(): void {
  execFileSync('bash', [path.resolve(import.meta.dirname, '../../scripts/ensure-services.sh')], {
    stdio: 'inherit',
  });
}
