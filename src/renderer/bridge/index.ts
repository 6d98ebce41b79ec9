/** What other rooms of renderer use of renderer/bridge: the room's public surface. */
export { call, filePicker, pathForFile, prepareFile, subscribe } from './bridge';
