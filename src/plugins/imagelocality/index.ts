// The ImageLocality plugin definition (pkg/scheduler/framework/plugins/imagelocality).
import type { PluginDefinition } from '../../framework/registry.js';
import { ImageLocalityPlugin, Name } from './image_locality.js';

export const imageLocalityDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new ImageLocalityPlugin(handle),
};

export {
  ImageLocalityPlugin,
  Name,
  calculatePriority,
  maxContainerThreshold,
  minThreshold,
  normalizedImageName,
  scaledImageScore,
} from './image_locality.js';
export { createImageExistenceMap, fillImageStates, nodeImageStates } from './image_states.js';
