/** The package in Bun (`npm run test:bun`): see `other-runtime.ts`. */
import { binary, describeRuntime } from './other-runtime.js';

const bun = binary('bun');
describeRuntime({ name: 'bun', version: '1.', library: [bun], all: [bun] });
