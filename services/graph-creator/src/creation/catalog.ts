import { Ajv } from 'ajv';
import type { Catalog } from '../analyst/types';

export const providerOf = (id: string): string => id.split('.')[0] ?? id;

export interface ParamsResult {
  valid: boolean;
  errors: string[];
  missing: { name: string; description: string; default?: unknown; example?: unknown }[];
}
export type ParamsCheck = (triggerId: string, params: Record<string, unknown>) => ParamsResult;

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
    const missing = (schema.required ?? [])
      .filter((name) => params[name] === undefined || params[name] === '')
      .map((name) => {
        const prop = schema.properties[name];
        return {
          name,
          description: prop?.description ?? name,
          ...(prop?.default !== undefined ? { default: prop.default } : {}),
        };
      });
    return { valid, errors: (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim()), missing };
  };
}
