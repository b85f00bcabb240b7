/** kafkajs' table of the broker's error codes (a file of its own, without types of its own). */
declare module 'kafkajs/src/protocol/error.js' {
  const errors: { errorCodes: readonly { type: string; code: number; retriable: boolean; message: string }[] };
  export default errors;
}
