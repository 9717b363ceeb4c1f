# el_embed(<target> <symbol> <file> <producer>)
#
# Makes <file> (built by target <producer>) available to host code as
#   extern const unsigned char <symbol>[], <symbol>_end[];
# through a generated assembler file that .incbin's it.  The object is
# rebuilt whenever the file changes.
function(el_embed target symbol file producer)
  set(asm ${CMAKE_BINARY_DIR}/embed/${symbol}.S)
  file(WRITE ${asm}.in
    "\t.section .rodata.${symbol},\"a\"\n"
    "\t.globl ${symbol}\n\t.globl ${symbol}_end\n"
    "\t.balign 64\n${symbol}:\n\t.incbin \"${file}\"\n${symbol}_end:\n"
    "\t.section .note.GNU-stack,\"\",@progbits\n")
  configure_file(${asm}.in ${asm} COPYONLY)
  add_library(${target} OBJECT ${asm})
  set_source_files_properties(${asm} PROPERTIES OBJECT_DEPENDS ${file})
  add_dependencies(${target} ${producer})
endfunction()
