/**
 * The number type of lossless values: lossless-json's `LosslessNumber`, which keeps a number's
 * literal text. This module is the only import of lossless-json.
 */
export { LosslessNumber, isLosslessNumber } from 'lossless-json';
