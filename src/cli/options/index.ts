/** What other rooms of cli use of cli/options: the room's public surface. */
export { parseBaseUrlOption, parseBlenderVersionOption, parseCameraOption, parseFormatOption, parseFramesOption, parsePage, parsePageSize, parsePercentage, parsePresetOption, parseOrderOption, parsePriorityOption, parseRequiresOption, parseSamples, parseSceneOption, parseStatusOption, parseViewLayerOption } from './parse-options';
export { parseByteSize, parseDuration, parsePixelCount } from './limit-options';
export type { ColorPreset, OutputFormat } from './parse-options';
