export { seedDemo } from './seedDemo';
export type { SeedDemoOptions } from './seedDemo';
export { DEMO_INSTANCES, DEMO_TEAMS } from './demoInstances';
export type { DemoInstance, DemoPhase } from './demoInstances';
