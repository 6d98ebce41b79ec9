/** Why a scene could not be analysed; `name` and `type` become the job's `failedReason`. */
export type SceneAnalysisErrorName = 'NotABlendFile' | 'SceneUnreadable' | 'SceneTooNew' | 'AnalysisTimedOut' | 'AnalysisFailed';

/** Stage the failure belongs to: the scene file itself, or the node's Blender. */
export type SceneAnalysisErrorType = 'scene' | 'blender';

/** A scene analysis that failed for a reason a person can act on. */
export class SceneAnalysisError extends Error {
  override readonly name: SceneAnalysisErrorName;
  readonly type: SceneAnalysisErrorType;

  constructor(name: SceneAnalysisErrorName, type: SceneAnalysisErrorType, message: string) {
    super(message);
    this.name = name;
    this.type = type;
  }

  /** The plain `{ name, type, message }` a job's `failedReason` carries. */
  toReason(): { name: string; type: string; message: string } {
    return { name: this.name, type: this.type, message: this.message };
  }
}
