export { ADDON_MODULE, addonSourceDir, readAddonSource, type AddonSource } from './addon-source';
export { type BlenderOrigin } from './blender-candidates';
export { addonSupports, OLDEST_ADDON_BLENDER, parseBlenderVersion, type BlenderVersion } from './blender-version';
export { setAddonEnabled } from './enable-addon';
export { findBlenders, inspectBlender, type BlenderInstall, type FindBlendersOptions } from './find-blenders';
export { AddonInstallError, addonStatus, installAddon, refuseAddonLinks, uninstallAddon, type AddonStatus, type InstallOptions } from './install-addon';
export { MANIFEST_NAME } from './install-manifest';
