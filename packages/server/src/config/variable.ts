import type { z } from 'zod';

/** One environment variable: its schema, its documented form, and its default. */
export interface ConfigVariable<T> {
  env: string;
  schema: z.ZodType<T>;
  /** Human description of the accepted form, used in errors and in docs/configuration.md. */
  form: string;
  description: string;
  /** The default as the user would write it; absent means "unset" is allowed (or required). */
  defaultText?: string;
}

export function variable<T>(spec: ConfigVariable<T>): ConfigVariable<T> {
  return spec;
}

/** A named group of variables, as one module of the service declares them. */
export interface ConfigSection<V extends Record<string, ConfigVariable<unknown>>> {
  title: string;
  variables: V;
}

export function section<V extends Record<string, ConfigVariable<unknown>>>(
  title: string,
  variables: V,
): ConfigSection<V> {
  return { title, variables };
}

export type SectionValues<S> =
  S extends ConfigSection<infer V>
    ? { [K in keyof V]: V[K] extends ConfigVariable<infer T> ? T : never }
    : never;
