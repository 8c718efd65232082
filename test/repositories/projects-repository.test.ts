import { describe, expect, it } from 'vitest';
import { createProjectsRepository } from '../../packages/server/src/db/projects-repository.ts';
import { isUniqueViolation } from '../../packages/server/src/db/unique-violation.ts';
import { ENGINES } from '../support/test-app.ts';
import { at, id, insertUser, projectRow, useRepositoryDatabase } from './repository-kit.ts';

describe.each(ENGINES)('projects repository on %s', (engine) => {
  const { db } = useRepositoryDatabase(engine);

  it("finds a project only for its account; another account's id looks unknown", async () => {
    const projects = createProjectsRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const row = projectRow(owner.id);
    await projects.insert(row);
    expect(await projects.find(owner.id, row.id)).toEqual(row);
    expect(await projects.find(other.id, row.id)).toBeUndefined();
    expect(await projects.findAnyById(row.id)).toEqual(row);
    expect(await projects.findAnyById(id('prj'))).toBeUndefined();
  });

  it('lists oldest first, then by id, for one account only', async () => {
    const projects = createProjectsRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const b = projectRow(owner.id, { created_at: at(20) });
    const a = projectRow(owner.id, { created_at: at(10) });
    await projects.insert(b);
    await projects.insert(a);
    await projects.insert(projectRow(other.id));
    expect((await projects.list(owner.id)).map((p) => p.id)).toEqual([a.id, b.id]);
  });

  it("updates only its own account's project", async () => {
    const projects = createProjectsRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const row = projectRow(owner.id);
    await projects.insert(row);
    expect(await projects.update(other.id, row.id, { name: 'Stolen' })).toBe(false);
    expect(await projects.update(owner.id, row.id, { name: 'Renamed', updated_at: at(5) })).toBe(true);
    expect(await projects.find(owner.id, row.id)).toMatchObject({ name: 'Renamed', updated_at: at(5) });
  });

  it('refuses two projects of an account for one domain, and allows it across accounts', async () => {
    const projects = createProjectsRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    await projects.insert(projectRow(owner.id, { domain: 'example.com' }));
    const error = await projects
      .insert(projectRow(owner.id, { domain: 'example.com' }))
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
    await projects.insert(projectRow(other.id, { domain: 'example.com' }));
    await projects.insert(projectRow(owner.id, { domain: null }));
    await projects.insert(projectRow(owner.id, { domain: null }));
  });

  it('keeps exactly one default: insertAsDefault and setDefault move it, a second default row is refused', async () => {
    const projects = createProjectsRepository(db());
    const owner = await insertUser(db());
    const first = projectRow(owner.id);
    await projects.insertAsDefault(first);
    expect((await projects.findDefault(owner.id))?.id).toBe(first.id);
    const second = projectRow(owner.id);
    await projects.insertAsDefault(second);
    expect((await projects.findDefault(owner.id))?.id).toBe(second.id);
    expect(await projects.setDefault(owner.id, first.id, at(9))).toBe(true);
    const defaults = (await projects.list(owner.id)).filter((p) => p.is_default === 1);
    expect(defaults.map((p) => p.id)).toEqual([first.id]);
    const error = await projects.insert(projectRow(owner.id, { is_default: 1 })).catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it("refuses to make another account's project the default", async () => {
    const projects = createProjectsRepository(db());
    const owner = await insertUser(db());
    const other = await insertUser(db());
    const mine = projectRow(owner.id);
    await projects.insertAsDefault(mine);
    const theirs = projectRow(other.id);
    await projects.insert(theirs);
    expect(await projects.setDefault(owner.id, theirs.id, at(1))).toBe(false);
    expect((await projects.findDefault(owner.id))?.id).toBe(mine.id);
    expect(await projects.findDefault(other.id)).toBeUndefined();
  });
});
