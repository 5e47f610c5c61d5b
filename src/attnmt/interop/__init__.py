"""Other engines' formats: Hugging Face Marian import and export, CTranslate2 export."""
