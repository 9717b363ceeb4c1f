# el_embed(<out_var> <symbol> <file> <producer>)
#
# Generates an assembler file that makes <file> (built by target <producer>)
# available to host code as
#   extern const unsigned char <symbol>[], <symbol>_end[];
# and appends its path to <out_var>.  Objects built from it are rebuilt
# whenever the file changes.
function(el_embed out_var symbol file producer)
  set(asm ${CMAKE_BINARY_DIR}/embed/${symbol}.S)
  file(WRITE ${asm}.in
    "\t.section .rodata.${symbol},\"a\"\n"
    "\t.globl ${symbol}\n\t.globl ${symbol}_end\n"
    "\t.balign 64\n${symbol}:\n\t.incbin \"${file}\"\n${symbol}_end:\n"
    "\t.section .note.GNU-stack,\"\",@progbits\n")
  configure_file(${asm}.in ${asm} COPYONLY)
  set_source_files_properties(${asm} PROPERTIES OBJECT_DEPENDS ${file})
  set(${out_var} ${${out_var}} ${asm} PARENT_SCOPE)
endfunction()
