import { HireloopError } from '@hireloop/platform';
import {
  ApiLimits,
  type CancelFrame,
  ClientFrameSchemas,
  type ClientFrameType,
  ClientFrameTypes,
  type HilResponseFrame,
  type MessageFrame,
  unstorableText,
  validate,
} from '@hireloop/schemas';
import { validationFailed } from '../errors';

/** A client frame, its `type` filled in (a frame without one is a chat line). */
export type InboundFrame = (MessageFrame & { type: 'message' }) | HilResponseFrame | CancelFrame;

export type Parsed = { ok: true; frame: InboundFrame; ref?: string } | { ok: false; error: HireloopError; ref?: string };

/** The bytes of a `ws` message, whatever form it came in. */
export type RawFrame = Buffer | ArrayBuffer | Buffer[];

export const byteLength = (data: RawFrame): number =>
  Array.isArray(data) ? data.reduce((n, b) => n + b.byteLength, 0) : data.byteLength;

const toText = (data: RawFrame): string =>
  (Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const refOf = (value: Record<string, unknown>): string | undefined =>
  typeof value.ref === 'string' && value.ref.length > 0 && value.ref.length <= ApiLimits.ref ? value.ref : undefined;

const isFrameType = (type: unknown): type is ClientFrameType => (ClientFrameTypes as readonly unknown[]).includes(type);

/**
 * Parses one client frame: JSON text within the size limit, a known `type`, and the fields that type
 * needs (§4a). Never throws: a bad frame is an error naming the problem, and the socket stays open.
 */
export function parseFrame(data: RawFrame, isBinary: boolean, frameLimit: number): Parsed {
  const size = byteLength(data);
  if (size > frameLimit) {
    return {
      ok: false,
      error: new HireloopError(
        'PAYLOAD_TOO_LARGE',
        `the frame is ${size} bytes, over the limit of ${frameLimit}: send a smaller one`,
      ),
    };
  }
  if (isBinary) return { ok: false, error: new HireloopError('BAD_REQUEST', 'frames are JSON text, not binary') };
  let value: unknown;
  try {
    value = JSON.parse(toText(data));
  } catch (error) {
    return { ok: false, error: new HireloopError('BAD_REQUEST', `the frame is not JSON: ${(error as Error).message}`) };
  }
  if (!isObject(value)) return { ok: false, error: new HireloopError('BAD_REQUEST', 'a frame is a JSON object') };
  const ref = refOf(value);
  const withRef = ref !== undefined ? { ref } : {};
  const type = value.type ?? 'message';
  if (!isFrameType(type)) {
    return {
      ok: false,
      error: new HireloopError(
        'BAD_REQUEST',
        `/type: unknown frame type ${JSON.stringify(type)}: expected ${ClientFrameTypes.join(', ')}`,
      ),
      ...withRef,
    };
  }
  const unstorable = unstorableText(value);
  if (unstorable) return { ok: false, error: validationFailed([unstorable]), ...withRef };
  const checked = validate(ClientFrameSchemas[type], value);
  if (!checked.ok) return { ok: false, error: validationFailed(checked.errors), ...withRef };
  const frame = (type === 'message' ? { ...checked.value, type } : checked.value) as InboundFrame;
  return { ok: true, frame, ...withRef };
}
