import { contextBridge, ipcRenderer, webUtils } from 'electron';
import { createPreloadBridge } from './preload-bridge';

contextBridge.exposeInMainWorld('renderdrop', createPreloadBridge(ipcRenderer, webUtils));
