/**
 * What cli/commands uses of cli/actions: each command's action module, loaded only when the command
 * runs, so that building the command tree (and `--help`, `--version`) loads none of them.
 */
export const loadActions = {
  addon: () => import('./addon'),
  auth: () => import('./auth'),
  download: () => import('./download'),
  jobs: () => import('./jobs'),
  logs: () => import('./logs'),
  pack: () => import('./pack'),
  requeue: () => import('./requeue'),
  studio: () => import('./studio'),
  submit: () => import('./submit'),
  verify: () => import('./verify'),
  watch: () => import('./watch'),
};
