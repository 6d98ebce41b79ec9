/** What other rooms of main use of main/activity: the room's public surface. */
export { Activity, type ActivitySnapshot, isWorkActive } from './activity';
