/**
 * `make docs` step: writes packages/sdk/src/generated/openapi-types.ts from the OpenAPI document
 * of a test server on loopback (the document is the server's, built from the contract's schemas).
 *
 *   node packages/sdk/scripts/generate-openapi-types.ts
 */
import fs from 'node:fs';
import { startTestApp } from '../../../test/support/test-app.ts';
import { OPENAPI_TYPES_FILE, openApiTypesSource } from './openapi-types.ts';

const t = await startTestApp('sqlite');
try {
  const document = (await t.request('GET', '/v1/openapi.json')).json as object;
  fs.writeFileSync(OPENAPI_TYPES_FILE, await openApiTypesSource(document));
  process.stdout.write(`wrote ${OPENAPI_TYPES_FILE.pathname}\n`);
} finally {
  await t.close();
}
