# The compile database reader and the compile command translation (gcc,
# clang, nvcc to clang 22). No LLVM: pure C++17 and nlohmann_json, so the
# tests and any front end can link it without Clang. Included from
# checker/cli/CMakeLists.txt.
add_library(lockstep_compile_db STATIC
  ${CMAKE_CURRENT_LIST_DIR}/CommandTranslation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/CompileDatabase.cpp
  ${CMAKE_CURRENT_LIST_DIR}/HostOptionTranslation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/NvccOptionTranslation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/ResponseFiles.cpp)
target_include_directories(lockstep_compile_db PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(lockstep_compile_db PUBLIC nlohmann_json::nlohmann_json)
