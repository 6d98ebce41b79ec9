; Offer Renderdrop in Explorer's "Open with" menu for .blend files without taking the default
; association away from Blender.
!macro customInstall
  WriteRegStr SHELL_CONTEXT "Software\Classes\Renderdrop.blend" "" "Blender scene (send with Renderdrop)"
  WriteRegStr SHELL_CONTEXT "Software\Classes\Renderdrop.blend\DefaultIcon" "" "$appExe,0"
  WriteRegStr SHELL_CONTEXT "Software\Classes\Renderdrop.blend\shell\open\command" "" '"$appExe" "%1"'
  WriteRegStr SHELL_CONTEXT "Software\Classes\.blend\OpenWithProgids" "Renderdrop.blend" ""
!macroend

!macro customUnInstall
  DeleteRegValue SHELL_CONTEXT "Software\Classes\.blend\OpenWithProgids" "Renderdrop.blend"
  DeleteRegKey SHELL_CONTEXT "Software\Classes\Renderdrop.blend"
!macroend
