/** What other layers use of node-common/images: the room's public surface. */
export { checkImageFile } from './image-check';
