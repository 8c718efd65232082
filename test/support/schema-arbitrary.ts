import fc from 'fast-check';

type Schema = Record<string, unknown> | boolean;

/** Arbitraries that replace what the schema would generate, by property name. */
export type Overrides = Record<string, fc.Arbitrary<unknown>>;

/** Bounds that keep a generated request small: the fuzz is about shapes, not sizes. */
const MAX_STRING = 40;
const MAX_ITEMS = 3;
const MAX_FIELDS = 4;

/** A value of some JSON type, for the share of fields that get a wrong value on purpose. */
const junk = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
);

function stringArbitrary(schema: Record<string, unknown>): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? MAX_STRING, MAX_STRING);
  if (typeof schema.pattern === 'string') {
    const pattern = new RegExp(schema.pattern, 'u');
    let matching: fc.Arbitrary<string>;
    try {
      matching = fc.stringMatching(pattern);
    } catch {
      // A pattern fast-check cannot generate from: random text that happens to match it.
      matching = fc.string({ unit: 'grapheme', minLength: 1, maxLength }).filter((s) => pattern.test(s));
    }
    const bound = Math.max(maxLength, minLength);
    return matching.filter((s) => s.length >= minLength && s.length <= Math.max(bound, 200));
  }
  return fc.string({ unit: 'grapheme-composite', minLength, maxLength: Math.max(minLength, maxLength) });
}

/**
 * A fast-check arbitrary for values of a JSON Schema (the subset zod writes into the OpenAPI
 * document: $ref, const, enum, anyOf, type lists, string bounds and patterns, number ranges,
 * arrays, objects with required keys). Overrides replace the generator of a property by name;
 * `wrongRate` (0..1 in tenths) of the optional properties get a value of another type, so the
 * refusals are exercised too.
 */
export function arbitraryFor(
  schema: Schema,
  components: Record<string, Schema>,
  overrides: Overrides = {},
  wrongRate = 1,
): fc.Arbitrary<unknown> {
  const recurse = (s: Schema) => arbitraryFor(s, components, overrides, wrongRate);
  if (typeof schema === 'boolean' || Object.keys(schema).length === 0) return fc.jsonValue({ maxDepth: 1 });
  if (typeof schema.$ref === 'string') {
    return recurse(components[schema.$ref.replace('#/components/schemas/', '')] ?? {});
  }
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const type = schema.type;
  if (Array.isArray(type)) return fc.oneof(...type.map((t) => recurse({ ...schema, type: t })));
  if (type === undefined && Array.isArray(schema.anyOf) && !schema.properties) {
    return fc.oneof(...(schema.anyOf as Schema[]).map(recurse));
  }
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return fc.integer({
        min: Math.max((schema.minimum as number | undefined) ?? -1000, Number.MIN_SAFE_INTEGER),
        max: Math.min((schema.maximum as number | undefined) ?? 100_000, Number.MAX_SAFE_INTEGER),
      });
    case 'number':
      return fc.double({
        min: (schema.minimum as number | undefined) ?? -1000,
        max: (schema.maximum as number | undefined) ?? 100_000,
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'array':
      return fc.array(recurse((schema.items as Schema | undefined) ?? {}), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? MAX_ITEMS, MAX_ITEMS),
      });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      // `if: {not: {required: A}}, then: {required: B}` (url unless site): A or B, chosen, is
      // required too.
      const unless = (schema.if as { not?: { required?: string[] } } | undefined)?.not?.required;
      const then = (schema.then as { required?: string[] } | undefined)?.required;
      if (unless && then) {
        const { if: _if, then: _then, ...rest } = schema;
        return fc
          .constantFrom(unless, then)
          .chain((chosen) =>
            recurse({ ...rest, required: [...((schema.required as string[] | undefined) ?? []), ...chosen] }),
          );
      }
      const required = (schema.required as string[] | undefined) ?? [];
      const fieldArbitrary = (name: string): fc.Arbitrary<unknown> => {
        const valid = overrides[name] ?? recurse(properties[name] ?? {});
        return required.includes(name) || overrides[name] || wrongRate === 0
          ? valid
          : fc.oneof({ arbitrary: valid, weight: 10 - wrongRate }, { arbitrary: junk, weight: wrongRate });
      };
      // A few optional fields at a time: with dozens (a capture body), all of them at once would
      // almost never make a request that gets past validation.
      const optional = Object.keys(properties).filter((name) => !required.includes(name));
      return fc
        .subarray(optional, { maxLength: Math.min(MAX_FIELDS, optional.length) })
        .chain((chosen) =>
          fc.record(Object.fromEntries([...required, ...chosen].map((name) => [name, fieldArbitrary(name)]))),
        );
    }
    default:
      return fc.jsonValue({ maxDepth: 1 });
  }
}
