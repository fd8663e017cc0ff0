// The ImageLocality plugin definition (pkg/scheduler/framework/plugins/imagelocality).
import type { PluginDefinition } from '../../framework/registry.js';
import { ImageLocality, Name } from './image_locality.js';

export const imageLocalityDefinition: PluginDefinition = {
  name: Name,
  factory: (_args, handle) => new ImageLocality(handle),
};

export { ImageLocality, calculatePriority, normalizedImageName } from './image_locality.js';
export { createImageExistenceMap, fillImageStates } from './image_states.js';
