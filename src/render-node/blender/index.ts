/** What other layers use of render-node/blender: the room's public surface. */
export { type DoctorReport, eeveeFinding, formatDoctorReport, runDoctor } from './doctor';
export { type BlenderInfo } from './probe';
