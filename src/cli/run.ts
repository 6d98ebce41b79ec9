import { main } from './index';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`renderdrop: ${(err as Error).message}\n`);
    process.exitCode = 1;
  },
);
