/** What other rooms of host use of host/submissions: the room's public surface. */
export { HostSubmissions } from './host-submissions';
