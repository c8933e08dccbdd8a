# cmake -DINPUT=<file> -DOUTPUT=<file> -P EmbedText.cmake: writes INPUT's text
# as a C++ raw string literal (for `#include`), rewritten only when it changes.
file(READ "${INPUT}" _text)
file(WRITE "${OUTPUT}.tmp" "R\"mo_embedded(${_text})mo_embedded\"\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
