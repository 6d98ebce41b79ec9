import { errorMessage } from './session/cli-action';
import { main } from './index';

main(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`renderdrop: ${errorMessage(err)}\n`);
    process.exitCode = 1;
  },
);
