{
  "targets": [
    {
      "target_name": "mapped_file",
      "sources": ["native/mapped_file.c"],
      "cflags": ["-O2", "-Wall"]
    }
  ]
}
