# Runs TOOL with ARGS (separated by '|': ctest passes a ';' on literally)
# and fails unless it exits with EXPECTED and, when MATCH is given, its
# output (stdout and stderr) matches MATCH.
#   cmake -DTOOL=<program> "-DARGS=<a|b|...>" -DEXPECTED=<code> [-DMATCH=<regex>] -P expect_exit.cmake
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${TOOL} ${args} RESULT_VARIABLE code OUTPUT_VARIABLE out
  ERROR_VARIABLE out)
if(NOT code STREQUAL EXPECTED)
  message(FATAL_ERROR "${TOOL} exited with ${code}, expected ${EXPECTED}:\n${out}")
endif()
if(DEFINED MATCH AND NOT out MATCHES "${MATCH}")
  message(FATAL_ERROR "${TOOL}'s output does not match '${MATCH}':\n${out}")
endif()
