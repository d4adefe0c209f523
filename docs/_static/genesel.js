// genesel's site: a click on a figure of a chapter shows it at the size of the window; a second click (or Escape)
// puts it back. Nothing is loaded from anywhere.
document.addEventListener("click", (event) => {
  const img = event.target.closest(".cell_output img");
  if (!img) return;
  event.preventDefault();  // Sphinx links a scaled image to its file: zoom in place instead
  img.classList.toggle("genesel-zoom");
});
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") document.querySelectorAll("img.genesel-zoom").forEach((i) => i.classList.remove("genesel-zoom"));
});
