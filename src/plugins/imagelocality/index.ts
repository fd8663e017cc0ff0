// The ImageLocality plugin definition (pkg/scheduler/framework/plugins/imagelocality).
import type { PluginDefinition } from '../../framework/registry.js';
import { ImageLocality, Name } from './image_locality.js';

export const imageLocalityDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new ImageLocality(handle),
};

export {
  ImageLocality,
  Name,
  calculatePriority,
  maxContainerThreshold,
  minThreshold,
  normalizedImageName,
  scaledImageScore,
} from './image_locality.js';
export { createImageExistenceMap, fillImageStates, nodeImageStates } from './image_states.js';
