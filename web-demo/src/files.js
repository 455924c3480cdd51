// A file picker inside a drop zone: `handle(file)` gets the file picked or dropped.
export function onFile(zone, input, handle) {
  input.addEventListener('change', () => input.files[0] && handle(input.files[0]));
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();  // allows the drop
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    if (event.dataTransfer.files[0]) handle(event.dataTransfer.files[0]);
  });
}
