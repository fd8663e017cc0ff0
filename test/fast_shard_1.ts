// `npm test` runs the fast suite as shards at once, one per core: this process loads shard 1.
import { loadFastShard } from './test_files.js';

await loadFastShard(1);
