import type { Catalog } from '@hireloop/analyst';
import { parseSchedule } from '@hireloop/analyst';
import { Ajv } from 'ajv';
import { Cron } from 'croner';

export const providerOf = (id: string): string => id.split('.')[0] ?? id;

export interface ParamsResult {
  valid: boolean;
  errors: string[];
  missing: { name: string; description: string; default?: unknown; example?: unknown }[];
}
export type ParamsCheck = (triggerId: string, params: Record<string, unknown>) => ParamsResult;

/**
 * What is wrong with a schedule's cron expression and time zone, or null when croner accepts both.
 * Only five-field expressions: seconds and years are not part of the contract.
 */
export function cronProblem(params: Record<string, unknown>): string | null {
  const { expression, timezone } = params;
  if (typeof expression !== 'string' || expression.trim() === '') return 'the schedule has no cron expression';
  if (expression.trim().split(/\s+/).length !== 5) return `cron expression "${expression}" must have five fields`;
  try {
    new Cron(expression, { paused: true, ...(typeof timezone === 'string' && timezone ? { timezone } : {}) }).stop();
  } catch (error) {
    return `cron expression "${expression}"${typeof timezone === 'string' ? ` (${timezone})` : ''} is invalid: ${(error as Error).message}`;
  }
  if (typeof timezone === 'string' && timezone !== '' && !validZone(timezone)) return `time zone "${timezone}" is unknown`;
  return null;
}

const validZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};

/** A parameter answered in words, as the type its schema asks for ("15" → 15 for an integer). */
export function coerceParam(catalog: Catalog, triggerId: string, name: string, value: string): unknown {
  // a schedule answered in words ("every Monday at 9") becomes its cron expression
  if (triggerId === 'schedule.cron' && name === 'expression' && cronProblem({ expression: value }) !== null)
    return parseSchedule(value)?.expression ?? value;
  const type = catalog.triggers.find((t) => t.id === triggerId)?.paramsSchema.properties[name]?.type;
  if ((type === 'number' || type === 'integer') && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  if (type === 'boolean' && /^(true|false|yes|no)$/i.test(value.trim())) return /^(true|yes)$/i.test(value.trim());
  return value;
}

// One Ajv for the process and one compiled validator per distinct schema: a new Ajv per check compiled
// its meta-schema every time, about a third of the worker's CPU per creation (docs/decisions.md, 2026-11-24).
const ajv = new Ajv({ allErrors: true, strict: false });
const validators = new Map<string, ReturnType<Ajv['compile']>>();
const MAX_VALIDATORS = 2_000;

/** The compiled validator of a trigger's parameter schema, by the schema's JSON (catalog views are fresh objects). */
function validatorOf(schema: object): ReturnType<Ajv['compile']> {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    // a catalog that changed for good leaves schemas nobody asks for: forget them (ajv's own cache with them)
    if (validators.size >= MAX_VALIDATORS) {
      validators.clear();
      ajv.removeSchema();
    }
    validate = ajv.compile(schema);
    validators.set(key, validate);
  }
  return validate;
}

/** Validates trigger parameters against the trigger's JSON Schema (each schema compiled once per process). */
export function paramsChecker(catalog: Catalog): ParamsCheck {
  return (triggerId, params) => {
    const trigger = catalog.triggers.find((t) => t.id === triggerId);
    if (!trigger) return { valid: false, errors: [`unknown trigger ${triggerId}`], missing: [] };
    const validate = validatorOf(trigger.paramsSchema);
    const schemaValid = validate(params) === true;
    const schema = trigger.paramsSchema;
    // a required parameter that is absent, or any parameter whose value breaks the schema, needs asking
    const invalid = new Set((validate.errors ?? []).map((e) => e.instancePath.split('/')[1]).filter((n): n is string => !!n));
    // a schedule's expression must also be a cron expression croner accepts
    const cron = triggerId === 'schedule.cron' && params.expression !== undefined ? cronProblem(params) : null;
    if (cron) invalid.add(/time zone/.test(cron) ? 'timezone' : 'expression');
    const valid = schemaValid && !cron;
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
    const errors = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
    return { valid, errors: cron ? [...errors, cron] : errors, missing };
  };
}
