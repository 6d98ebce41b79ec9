import { main } from './index';
import { runGuarded } from './session/process-guards';

runGuarded(process, () => main(process.argv));
