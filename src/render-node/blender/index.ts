/** What other layers use of render-node/blender: the room's public surface. */
export { type DoctorReport, formatDoctorReport, runDoctor } from './doctor';
export { type BlenderInfo } from './probe';
