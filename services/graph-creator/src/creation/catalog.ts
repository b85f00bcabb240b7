import { Ajv } from 'ajv';
import type { Catalog } from '../analyst/types';

export const providerOf = (id: string): string => id.split('.')[0] ?? id;

export interface ParamsResult {
  valid: boolean;
  errors: string[];
  missing: { name: string; description: string; default?: unknown; example?: unknown }[];
}
export type ParamsCheck = (triggerId: string, params: Record<string, unknown>) => ParamsResult;

/** A parameter answered in words, as the type its schema asks for ("15" → 15 for an integer). */
export function coerceParam(catalog: Catalog, triggerId: string, name: string, value: string): unknown {
  const type = catalog.triggers.find((t) => t.id === triggerId)?.paramsSchema.properties[name]?.type;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean' && /^(true|false|yes|no)$/i.test(value.trim())) return /^(true|yes)$/i.test(value.trim());
  return value;
}

/** Validates trigger parameters against the trigger's JSON Schema (compiled once per trigger). */
export function paramsChecker(catalog: Catalog): ParamsCheck {
  const ajv = new Ajv({ allErrors: true, strict: false });
  const compiled = new Map<string, ReturnType<Ajv['compile']>>();
  return (triggerId, params) => {
    const trigger = catalog.triggers.find((t) => t.id === triggerId);
    if (!trigger) return { valid: false, errors: [`unknown trigger ${triggerId}`], missing: [] };
    let validate = compiled.get(triggerId);
    if (!validate) {
      validate = ajv.compile(trigger.paramsSchema);
      compiled.set(triggerId, validate);
    }
    const valid = validate(params) === true;
    const schema = trigger.paramsSchema;
    // a required parameter that is absent, or any parameter whose value breaks the schema, needs asking
    const invalid = new Set((validate.errors ?? []).map((e) => e.instancePath.split('/')[1]).filter((n): n is string => !!n));
    const names = [
      ...new Set([...(schema.required ?? []).filter((n) => params[n] === undefined || params[n] === ''), ...invalid]),
    ];
    const missing = names.map((name) => {
      const prop = schema.properties[name];
      return {
        name,
        description: `${prop?.description ?? name}${prop?.enum ? ` (one of: ${prop.enum.join(', ')})` : ''}`,
        ...(prop?.default !== undefined ? { default: prop.default } : {}),
      };
    });
    return { valid, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()), missing };
  };
}
